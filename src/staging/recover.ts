import fs from 'node:fs';
import path from 'node:path';
import { CHANGESET_JOURNAL_DIR } from '../fs/apply-names.js';
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
      if (manifest && fs.existsSync(path.join(dir, 'committed'))) {
        for (const entry of manifest.entries) {
          if (entry.temp) {
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

export async function recoverChangeSets(sandbox: Sandbox): Promise<RecoveryReport> {
  return recoverChangeSetsSync(sandbox);
}
