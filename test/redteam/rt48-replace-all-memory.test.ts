// rt48 "No cliffs" — peak memory within about 6× the file size.
// edit_file replace_all where every line of a 1M-line, 60 MB file matches: the call needs more than
// 1 GB of heap (measured with --trace-gc: ~1.19 GB peak, RSS +1.2 GB; 7.4 s), about 20× the file.
// Under a 512 MB heap cap (8.5× the file, room for the ~35 MB the library itself takes) the process
// dies of "JavaScript heap out of memory" (SIGABRT) instead of answering. The same file with 10k
// matches (1% of the lines) stays under the cap (~216 MB peak heap).
// The same shape at small sizes: 'x' × 10 MB (one line) replace_all 'x' → 'yy' took 15 s and +2.4 GB RSS;
// 'ab\n' × 1M (3 MB) replace_all took 5.5 s and +675 MB RSS. A CPU profile of the latter: GC 2.3 s,
// then the full unified diff of 2M lines (prefixLines/changedLineRanges/lineList) built even when the
// result only shows a bounded diff and no approval is asked.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const ROOT = path.resolve(__dirname, '../..');
const CHILD = path.resolve(__dirname, 'rt48-heap-child.ts');

function runCapped(which: string, n: number, heapMb: number) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt48-heap-')));
  dirs.push(dir);
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, nodeScript(CHILD), which, dir, String(n)],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => {
    out += c;
  });
  child.stderr.on('data', (c) => {
    err += c;
  });
  return new Promise<{
    result?: { ok: boolean; code?: string; size: number; bytesOk: boolean };
    exit: string;
    err: string;
  }>((resolve) => {
    child.on('exit', (code, signal) => {
      const m = /RESULT (.*)\n/.exec(out);
      resolve({
        ...(m ? { result: JSON.parse(m[1]!) } : {}),
        exit: `${code ?? ''}${signal ?? ''}`,
        err: err
          .split('\n')
          .filter((l) => /heap|memory|Error/i.test(l))
          .slice(0, 3)
          .join(' | '),
      });
    });
  });
}

describe('rt48: replace_all memory stays within a few times the file size', () => {
  it('1M-line 60 MB file, replace_all matching every line (1M matches), under a 512 MB heap: answers, bytes exact', async () => {
    const { result, exit, err } = await runCapped('replace_all_every_line', 1_000_000, 512);
    expect(result, `child died (exit ${exit}): ${err}`).toBeDefined();
    expect(result!.ok).toBe(true);
    expect(result!.bytesOk).toBe(true);
  }, 120_000);

  it('held: same file, replace_all matching 1% of the lines (10k matches), under the same cap', async () => {
    const { result, exit, err } = await runCapped('replace_all_one_percent', 1_000_000, 512);
    expect(result, `child died (exit ${exit}): ${err}`).toBeDefined();
    expect(result!.ok).toBe(true);
    expect(result!.bytesOk).toBe(true);
  }, 120_000);
});
