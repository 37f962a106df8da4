import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * GNU patch as the oracle, on bytes (--binary: CRs kept; -F0: no fuzz): the bytes it
 * writes for `old` patched with `diff`, or why it failed. Files go in `dir`.
 */
export function gnuPatch(dir: string, old: Buffer, diff: string): Buffer | string {
  const o = path.join(dir, 'old.bin');
  const d = path.join(dir, 'p.diff');
  const out = path.join(dir, 'new.bin');
  fs.writeFileSync(o, old);
  fs.writeFileSync(d, diff);
  try {
    execFileSync('patch', ['--binary', '-s', '-N', '-F0', '-o', out, o, '-i', d], {
      stdio: 'pipe',
      maxBuffer: 1 << 26,
    });
  } catch (e: any) {
    return `patch failed: ${String(e.stdout)}${String(e.stderr)}`.slice(0, 500);
  }
  return fs.readFileSync(out);
}
