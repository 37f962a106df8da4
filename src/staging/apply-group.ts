import { randomBytes } from 'node:crypto';
import fsSync, { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { applyTempName, CHANGESET_JOURNAL_DIR } from '../fs/apply-names.js';
import { type DirHandle, openDirectoryInside } from '../fs/dir-handle.js';
import { closeFd, readFdToEnd, syncFd, writeFdHashed } from '../fs/fd-io.js';
import { withFileLock } from '../fs/file-lock.js';
import { isOwnEntry, type OwnFile, tempReplaced } from '../fs/own-entry.js';
import { sha256Hex } from '../fs/state-tracker.js';
import { createPlace } from './create-place.js';

/** What must be on disk before a group is applied: nothing, or this content with this identity. */
export type Expected =
  | { exists: false; place?: string }
  | { exists: true; sha256: string; dev?: number; ino?: number };

/** One file of a group: the state it must have, and what it becomes (null: deleted). */
export interface GroupOp {
  virtualPath: string;
  hostPath: string;
  realRoot: string;
  expect: Expected;
  final: { data: Buffer; mode: number } | null;
}

export interface WrittenFile {
  virtualPath: string;
  sha256: string | null;
  dev?: number;
  ino?: number;
}

export type GroupResult =
  | { ok: true; written: WrittenFile[] }
  | { ok: false; conflict: { path: string; reason: string } };

/** Journal record of one apply (manifest.json in the journal directory). */
export interface JournalManifest {
  pid: number;
  entries: { target: string; temp: string | null }[];
  /** Directories created for the group, outermost first (removed again on roll back). */
  dirs: string[];
}

/**
 * An apply failed after its commit point: the set is committed and the journal
 * completes it (recoverChangeSets, or the next toolset over the sandbox).
 */
export class ApplyInterrupted extends Error {
  constructor(readonly reason: unknown) {
    super(
      `The change set was committed but could not be finished (${reason instanceof Error ? reason.message : String(reason)}); it will be completed by recoverChangeSets.`,
    );
  }
}

/** Test hook: called at each step of an apply (the crash test kills the process there). */
export type StepHook = (step: string) => void | Promise<void>;

async function lockAll<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const run = (i: number): Promise<T> =>
    i === sorted.length ? fn() : withFileLock(sorted[i]!, () => run(i + 1));
  return run(0);
}

/** Checks one file against what the group expects; a reason when it differs. */
async function verify(op: GroupOp): Promise<string | undefined> {
  let stat: fsSync.Stats | undefined;
  try {
    stat = fsSync.lstatSync(op.hostPath);
  } catch {
    stat = undefined;
  }
  if (!op.expect.exists) {
    if (stat) return `${op.virtualPath} was created on disk since it was staged`;
    // Still missing, and still to be created in the very place it was staged for.
    if (op.expect.place !== undefined && createPlace(op.hostPath) !== op.expect.place)
      return `a directory on the way to ${op.virtualPath} was replaced on disk since it was staged`;
    return undefined;
  }
  if (!stat || !stat.isFile()) return `${op.virtualPath} was deleted or replaced on disk since it was staged`;
  if (op.expect.dev !== undefined && (stat.dev !== op.expect.dev || stat.ino !== op.expect.ino))
    return `${op.virtualPath} was replaced on disk (a different file) since it was staged`;
  const sha = sha256Hex(await readWhole(op.hostPath));
  return sha === op.expect.sha256 ? undefined : `${op.virtualPath} changed on disk since it was staged`;
}

/** A file's bytes (metadata calls synchronous, like the rest of the file layer: see fd-io.ts). */
async function readWhole(file: string): Promise<Buffer> {
  const fd = fsSync.openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    return await readFdToEnd(fd, fsSync.fstatSync(fd).size);
  } finally {
    closeFd(fd);
  }
}

async function missingDirs(dir: string, realRoot: string, out: string[]): Promise<void> {
  if (dir === realRoot || out.includes(dir)) return;
  try {
    fsSync.lstatSync(dir);
    return;
  } catch {
    // missing: created, and listed for the roll-back
  }
  await missingDirs(path.dirname(dir), realRoot, out);
  out.push(dir);
}

/** Writes and syncs a file; returns the device and inode written (to check the entry before it is renamed). */
async function writeSynced(
  file: string,
  data: Buffer | string,
  mode: number,
  exclusive: boolean,
): Promise<OwnFile> {
  const written = await writeUnsynced(file, data, mode, exclusive);
  await written.sync();
  return written.own;
}

/**
 * Writes a file and leaves its fsync to the caller (`sync`, which also closes it), so
 * the temp files of a set are synced side by side instead of one disk wait each.
 */
async function writeUnsynced(
  file: string,
  data: Buffer | string,
  mode: number,
  exclusive: boolean,
): Promise<{ own: OwnFile; sync: () => Promise<void> }> {
  const flags = constants.O_WRONLY | constants.O_CREAT | (exclusive ? constants.O_EXCL : constants.O_TRUNC);
  const fd = fsSync.openSync(file, flags | constants.O_NOFOLLOW, 0o600);
  const { dev, ino } = fsSync.fstatSync(fd);
  const removeOwn = () => {
    // A half-written file of ours is removed here (the roll-back only knows finished ones).
    if (isOwnEntry(file, { dev, ino })) fsSync.rmSync(file, { force: true });
  };
  try {
    await writeFdHashed(fd, data);
    fsSync.fchmodSync(fd, mode);
  } catch (error) {
    removeOwn();
    closeFd(fd);
    throw error;
  }
  const sync = async () => {
    try {
      await syncFd(fd);
    } catch (error) {
      removeOwn();
      throw error;
    } finally {
      closeFd(fd);
    }
  };
  return { own: { dev, ino }, sync };
}

/** Temp files synced at once while a set is written (each holds a descriptor until synced). */
const SYNCS_IN_FLIGHT = 16;

async function syncDir(dir: string): Promise<void> {
  let fd: number;
  try {
    fd = fsSync.openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return;
  }
  await syncFd(fd).catch(() => undefined);
  closeFd(fd);
}

/**
 * Applies a group of file changes all-or-nothing. Under every file's lock: each
 * file is verified (identity and hash), a journal listing every temp file is
 * written, the new contents go to temp files beside their targets, a `committed`
 * marker is the commit point, then the temps are renamed over their targets.
 * A crash before the marker is rolled back, after it rolled forward, by
 * recoverChangeSets (the journal lives in the mount root, hidden from listings).
 */
export async function applyGroup(ops: GroupOp[], hook?: StepHook): Promise<GroupResult> {
  if (ops.length === 0) return { ok: true, written: [] };
  return lockAll(
    ops.map((o) => o.hostPath),
    async () => {
      for (const op of ops) {
        const reason = await verify(op);
        if (reason) return { ok: false, conflict: { path: op.virtualPath, reason } };
      }
      await hook?.('verified');
      const journal = path.join(
        ops[0]!.realRoot,
        CHANGESET_JOURNAL_DIR,
        `${process.pid}-${randomBytes(8).toString('hex')}`,
      );
      // Another apply may remove the (then empty) journal directory just now: try again.
      for (let attempt = 0; ; attempt++) {
        try {
          fsSync.mkdirSync(journal, { recursive: true });
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw error;
        }
      }
      const dirs: string[] = [];
      for (const op of ops) if (op.final) await missingDirs(path.dirname(op.hostPath), op.realRoot, dirs);
      const manifest: JournalManifest = {
        pid: process.pid,
        entries: ops.map((op) => ({
          target: op.hostPath,
          temp: op.final
            ? path.join(path.dirname(op.hostPath), applyTempName(path.basename(op.hostPath)))
            : null,
        })),
        dirs,
      };
      await writeSynced(path.join(journal, 'manifest.tmp'), JSON.stringify(manifest), 0o600, true);
      fsSync.renameSync(path.join(journal, 'manifest.tmp'), path.join(journal, 'manifest.json'));
      await syncDir(journal);
      await hook?.('journal');
      // Every parent is held open and verified inside its mount (created level by level when
      // missing), and temps are written and renamed through it: a directory swapped for a
      // symlink meanwhile cannot redirect a write.
      const held = new Map<string, DirHandle>();
      const parentOf = async (op: GroupOp, create: boolean): Promise<DirHandle | undefined> => {
        const dir = path.dirname(op.hostPath);
        const known = held.get(dir);
        if (known) return known;
        const handle = await openDirectoryInside(dir, op.realRoot, {
          create,
          displayPath: op.virtualPath,
        }).catch((error) => {
          if (create) throw error;
          return undefined; // nothing there to delete
        });
        if (handle) held.set(dir, handle);
        return handle;
      };
      // What each temp file is (device, inode): only that file is renamed over its target.
      const own: (OwnFile | null)[] = ops.map(() => null);
      try {
        try {
          // Each temp file's fsync runs while the next ones are written; all are done before the commit.
          // Each settles to its error (if any): a failure waits for the loop, never goes unhandled.
          const syncing: Promise<unknown>[] = [];
          const settle = async (pending: Promise<unknown> | undefined) => {
            const error = await pending;
            if (error !== undefined) throw error;
          };
          let stopped: { error: unknown } | undefined;
          try {
            for (const [i, op] of ops.entries()) {
              if (!op.final) continue;
              const dir = (await parentOf(op, true))!;
              const written = await writeUnsynced(
                dir.child(path.basename(manifest.entries[i]!.temp!)),
                op.final.data,
                op.final.mode,
                true,
              );
              own[i] = written.own;
              syncing.push(
                written.sync().then(
                  () => undefined,
                  (error: unknown) => error ?? new Error('fsync failed'),
                ),
              );
              if (syncing.length >= SYNCS_IN_FLIGHT) await settle(syncing.shift());
              await hook?.(`temp:${i}`);
            }
          } catch (error) {
            stopped = { error };
          }
          const failed = (await Promise.all(syncing)).find((error) => error !== undefined);
          if (stopped) throw stopped.error;
          if (failed !== undefined) throw failed;
          // Another process may have renamed something of its own over a temp name meanwhile.
          for (const [i, op] of ops.entries()) {
            const mine = own[i];
            const dir = mine ? await parentOf(op, false) : undefined;
            if (mine && (!dir || !isOwnEntry(dir.child(path.basename(manifest.entries[i]!.temp!)), mine)))
              throw tempReplaced(op.virtualPath, 'nothing was applied');
          }
        } catch (error) {
          await rollBack(manifest, journal, own);
          throw error;
        }
        // The marker records each temp file's identity: finishing (now or after a crash) renames only those.
        await writeSynced(path.join(journal, 'committed'), JSON.stringify({ own }), 0o600, true);
        await syncDir(journal);
        await hook?.('committed');
        try {
          await finish();
        } catch (error) {
          throw new ApplyInterrupted(error);
        }
      } finally {
        for (const dir of held.values()) await dir.close();
      }
      async function finish() {
        const replaced: string[] = [];
        for (const [i, op] of ops.entries()) {
          const dir = await parentOf(op, false);
          const entry = manifest.entries[i]!;
          const mine = own[i];
          if (dir && entry.temp && mine) {
            const temp = dir.child(path.basename(entry.temp));
            // Checked right before the rename: an entry another process put at the temp name is not moved in.
            if (isOwnEntry(temp, mine)) fsSync.renameSync(temp, dir.child(path.basename(op.hostPath)));
            else replaced.push(op.virtualPath);
          } else if (dir) await fs.unlink(dir.child(path.basename(op.hostPath))).catch(ignoreMissing);
          await hook?.(`renamed:${i}`);
        }
        await Promise.all([...held.values()].map((dir) => dir.sync()));
        if (replaced.length > 0)
          throw tempReplaced(
            replaced.join(', '),
            `${replaced.join(', ')} kept what was there; the rest of the change set was applied`,
          );
      }
      await removeJournal(journal);
      await hook?.('done');
      const written: WrittenFile[] = [];
      for (const op of ops) {
        if (!op.final) {
          written.push({ virtualPath: op.virtualPath, sha256: null });
          continue;
        }
        const stat = fsSync.lstatSync(op.hostPath);
        written.push({
          virtualPath: op.virtualPath,
          sha256: sha256Hex(op.final.data),
          dev: stat.dev,
          ino: stat.ino,
        });
      }
      return { ok: true, written };
    },
  );
}

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

/** Removes the temps and the directories created for them: the targets were never touched. */
async function rollBack(manifest: JournalManifest, journal: string, own: (OwnFile | null)[]): Promise<void> {
  // Only our own temp files are removed: an entry another process put at a temp name is not ours.
  for (const [i, entry] of manifest.entries.entries()) {
    const mine = own[i];
    if (entry.temp && mine && isOwnEntry(entry.temp, mine)) await fs.rm(entry.temp, { force: true });
  }
  for (const dir of [...manifest.dirs].reverse()) await fs.rmdir(dir).catch(() => undefined);
  await removeJournal(journal);
}

/** Removes one journal, and the journal directory when no other apply is using it. */
async function removeJournal(journal: string): Promise<void> {
  fsSync.rmSync(journal, { recursive: true, force: true });
  try {
    fsSync.rmdirSync(path.dirname(journal));
  } catch {
    // another apply's journal is still there
  }
}
