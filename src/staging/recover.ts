import fs from 'node:fs';
import path from 'node:path';
import { APPLY_TEMP, CHANGESET_JOURNAL_DIR } from '../contract/reserved-names.js';
import { isOwnEntry, type OwnFile } from '../fs/own-entry.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { JournalManifest } from './apply-group.js';

export interface RecoveryReport {
  /** Applies that had committed: finished now. */
  rolledForward: number;
  /** Applies interrupted before their commit point: undone (the targets were never touched). */
  rolledBack: number;
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readManifest(dir: string): JournalManifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as JournalManifest;
  } catch {
    return undefined;
  }
}

/** A path inside one of the sandbox's writable mounts, reached without links (its real parent is itself). */
function insideWritable(sandbox: Sandbox, p: unknown): p is string {
  if (typeof p !== 'string' || !path.isAbsolute(p) || path.resolve(p) !== p) return false;
  const root = sandbox.mounts.find(
    (m) => m.mode === 'rw' && p.startsWith(`${m.realRoot}${path.sep}`),
  )?.realRoot;
  if (!root) return false;
  // The deepest existing directory above it is its own real path (directories an
  // interrupted apply had not created yet are simply missing).
  for (let dir = path.dirname(p); dir.startsWith(root); dir = path.dirname(dir)) {
    try {
      return fs.realpathSync(dir) === dir;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return false;
    }
  }
  return false;
}

/**
 * Whether a journal is one this library wrote for this sandbox: every target and
 * directory inside a writable mount (no links on the way), every temp an apply
 * temp beside its target. Anything else (a journal planted by someone with write
 * access to a mount) is never acted on: recovery would otherwise rename or
 * delete whatever it names.
 */
function trustworthy(sandbox: Sandbox, manifest: JournalManifest | undefined): manifest is JournalManifest {
  if (!manifest || !Array.isArray(manifest.entries) || !Array.isArray(manifest.dirs)) return false;
  for (const e of manifest.entries) {
    if (!e || !insideWritable(sandbox, e.target)) return false;
    if (e.temp === null) continue;
    if (typeof e.temp !== 'string' || path.dirname(e.temp) !== path.dirname(e.target)) return false;
    if (!APPLY_TEMP.test(path.basename(e.temp))) return false;
  }
  return manifest.dirs.every(
    (d) =>
      typeof d === 'string' &&
      path.isAbsolute(d) &&
      path.resolve(d) === d &&
      sandbox.mounts.some((m) => m.mode === 'rw' && d.startsWith(`${m.realRoot}${path.sep}`)),
  );
}

/**
 * Finishes or undoes change-set applies that a crash interrupted, in every mount
 * of the sandbox: a committed journal is rolled forward (its remaining temps
 * renamed over their targets), any other rolled back. Journals of live
 * processes (this one included) are left alone. Synchronous, so a toolset can
 * run it in its constructor; cheap when there is nothing to do (one lstat per mount).
 */
export function recoverChangeSetsSync(sandbox: Sandbox): RecoveryReport {
  const report: RecoveryReport = { rolledForward: 0, rolledBack: 0 };
  for (const root of new Set(sandbox.mounts.map((m) => m.realRoot))) {
    const base = path.join(root, CHANGESET_JOURNAL_DIR);
    let names: string[];
    try {
      names = fs.readdirSync(base);
    } catch {
      continue;
    }
    for (const name of names) {
      const dir = path.join(base, name);
      const manifest = readManifest(dir);
      // The directory is named <pid>-<random>: a live apply (this process's too) is left alone.
      const pid = Number(name.split('-')[0]);
      if (!Number.isInteger(pid) || alive(pid)) continue;
      // A journal that names anything else is left untouched (and unacted on).
      if (manifest !== undefined && !trustworthy(sandbox, manifest)) continue;
      if (manifest && fs.existsSync(path.join(dir, 'committed'))) {
        const own = ownTemps(dir);
        for (const [i, entry] of manifest.entries.entries()) {
          if (entry.temp) {
            // Only the temp file the apply wrote is moved in, not an entry another process put at its name.
            const mine = own?.[i];
            if (mine && !isOwnEntry(entry.temp, mine)) continue;
            try {
              fs.renameSync(entry.temp, entry.target);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
            }
          } else fs.rmSync(entry.target, { force: true });
        }
        report.rolledForward++;
      } else {
        for (const entry of manifest?.entries ?? []) if (entry.temp) fs.rmSync(entry.temp, { force: true });
        for (const d of [...(manifest?.dirs ?? [])].reverse()) {
          try {
            fs.rmdirSync(d);
          } catch {
            // not empty (someone else wrote there) or gone: leave it
          }
        }
        report.rolledBack++;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
    try {
      fs.rmdirSync(base);
    } catch {
      // still holds a live journal
    }
  }
  return report;
}

/** The temp files' identities the commit marker records (absent in markers of older versions: not checked). */
function ownTemps(journal: string): (OwnFile | null)[] | undefined {
  try {
    const own = (JSON.parse(fs.readFileSync(path.join(journal, 'committed'), 'utf8')) as { own?: unknown })
      .own;
    if (!Array.isArray(own)) return undefined;
    return own.map((o) =>
      o && typeof o === 'object' && Number.isInteger(o.dev) && Number.isInteger(o.ino)
        ? { dev: o.dev as number, ino: o.ino as number }
        : null,
    );
  } catch {
    return undefined;
  }
}

export async function recoverChangeSets(sandbox: Sandbox): Promise<RecoveryReport> {
  return recoverChangeSetsSync(sandbox);
}
