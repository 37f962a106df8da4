import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { applyTempName, CHANGESET_JOURNAL_DIR } from '../fs/apply-names.js';
import { type DirHandle, openDirectoryInside } from '../fs/dir-handle.js';
import { withFileLock } from '../fs/file-lock.js';
import { sha256Hex } from '../fs/state-tracker.js';

/** What must be on disk before a group is applied: nothing, or this content with this identity. */
export type Expected = { exists: false } | { exists: true; sha256: string; dev?: number; ino?: number };

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
  let stat: import('node:fs').Stats | undefined;
  try {
    stat = await fs.lstat(op.hostPath);
  } catch {
    stat = undefined;
  }
  if (!op.expect.exists)
    return stat ? `${op.virtualPath} was created on disk since it was staged` : undefined;
  if (!stat || !stat.isFile()) return `${op.virtualPath} was deleted or replaced on disk since it was staged`;
  if (op.expect.dev !== undefined && (stat.dev !== op.expect.dev || stat.ino !== op.expect.ino))
    return `${op.virtualPath} was replaced on disk (a different file) since it was staged`;
  const sha = sha256Hex(await fs.readFile(op.hostPath));
  return sha === op.expect.sha256 ? undefined : `${op.virtualPath} changed on disk since it was staged`;
}

async function missingDirs(dir: string, realRoot: string, out: string[]): Promise<void> {
  if (dir === realRoot || out.includes(dir)) return;
  const exists = await fs.lstat(dir).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await missingDirs(path.dirname(dir), realRoot, out);
  out.push(dir);
}

async function writeSynced(
  file: string,
  data: Buffer | string,
  mode: number,
  exclusive: boolean,
): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | (exclusive ? constants.O_EXCL : constants.O_TRUNC);
  const handle = await fs.open(file, flags | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY).catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
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
          await fs.mkdir(journal, { recursive: true });
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
      await fs.rename(path.join(journal, 'manifest.tmp'), path.join(journal, 'manifest.json'));
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
      try {
        try {
          for (const [i, op] of ops.entries()) {
            if (!op.final) continue;
            const dir = (await parentOf(op, true))!;
            await writeSynced(
              dir.child(path.basename(manifest.entries[i]!.temp!)),
              op.final.data,
              op.final.mode,
              true,
            );
            await hook?.(`temp:${i}`);
          }
        } catch (error) {
          await rollBack(manifest, journal);
          throw error;
        }
        await writeSynced(path.join(journal, 'committed'), '', 0o600, true);
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
        for (const [i, op] of ops.entries()) {
          const dir = await parentOf(op, false);
          const entry = manifest.entries[i]!;
          if (dir && entry.temp)
            await fs.rename(dir.child(path.basename(entry.temp)), dir.child(path.basename(op.hostPath)));
          else if (dir) await fs.unlink(dir.child(path.basename(op.hostPath))).catch(ignoreMissing);
          await hook?.(`renamed:${i}`);
        }
        for (const dir of held.values()) await dir.sync();
      }
      await removeJournal(journal);
      await hook?.('done');
      const written: WrittenFile[] = [];
      for (const op of ops) {
        if (!op.final) {
          written.push({ virtualPath: op.virtualPath, sha256: null });
          continue;
        }
        const stat = await fs.lstat(op.hostPath);
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
async function rollBack(manifest: JournalManifest, journal: string): Promise<void> {
  for (const entry of manifest.entries) if (entry.temp) await fs.unlink(entry.temp).catch(() => undefined);
  for (const dir of [...manifest.dirs].reverse()) await fs.rmdir(dir).catch(() => undefined);
  await removeJournal(journal);
}

/** Removes one journal, and the journal directory when no other apply is using it. */
async function removeJournal(journal: string): Promise<void> {
  await fs.rm(journal, { recursive: true, force: true });
  await fs.rmdir(path.dirname(journal)).catch(() => undefined);
}
