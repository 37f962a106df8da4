// rt62: list_files patterns and characters outside the BMP. `?` and bracket expressions work on UTF-16
// code units, not characters: `?` does not match a file named "😀" (one character; `??` does), `[😀]`
// matches nothing at all, `[!a]` does not match "😀", and `[a-😀]` is read as `[a-\uD83D]` + `\uDE00`, so
// it misses U+FFFD and 😀 itself. bash (C.UTF-8) matches all of these. (picomatch, without the `u` flag,
// shares the bug, so this is where "compare with a shell" decides.) The 1,024-character limit also counts
// code units: a 600-character pattern of emoji is refused as "longer than 1,024 characters".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dir = mkdtempSync(join(os.tmpdir(), 'rt62-uni-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
for (const n of ['😀', '\uFFFD', 'a', 'é', 'x😀']) writeFileSync(join(dir, n), '');
const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));

async function list(pattern: string): Promise<string[]> {
  const r = (await ts.callTool('list_files', { path: '/', pattern })) as any;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.data.entries.map((e: string) => e.slice(1));
}

describe('rt62: glob character classes and `?` on astral characters', () => {
  it('FINDING: `?` matches the one-character name "😀" (bash: yes); `??` does not', async () => {
    expect(await list('?')).toContain('😀'); // actual: ["a","é","\uFFFD"]
    expect(await list('??')).not.toContain('😀'); // actual: "??" lists "😀" (two code units)
  });

  it('FINDING: `[😀]` matches "😀"; `x[😀]` matches "x😀"', async () => {
    expect(await list('[😀]')).toEqual(['😀']); // actual: []
    expect(await list('x[😀]')).toEqual(['x😀']); // actual: []
  });

  it('FINDING: `[!a]` matches "😀" (one character that is not "a")', async () => {
    expect(await list('[!a]')).toContain('😀'); // actual: ["\uFFFD","é"]
  });

  it('FINDING: the range `[a-😀]` (U+0061..U+1F600) matches "é", "\\uFFFD" and "😀"', async () => {
    expect((await list('[a-😀]')).sort()).toEqual(['a', 'é', '\uFFFD', '😀'].sort()); // actual: ["a","é"]
  });

  it('FINDING (minor): a 600-character pattern (all emoji) is not "longer than 1,024 characters"', async () => {
    const r = (await ts.callTool('list_files', { path: '/', pattern: '😀'.repeat(600) })) as any;
    // actual: invalid_argument "…: it is longer than 1,024 characters." (it has 600 characters, 1,200 code units)
    expect(r.ok, r.ok ? '' : r.error.message.slice(-60)).toBe(true);
  });

  it('holds: NFC and NFD spellings are distinct names (as on Linux / in bash): `é` NFC ≠ NFD', async () => {
    writeFileSync(join(dir, 'e\u0301'), '');
    expect(await list('\u00e9')).toEqual(['\u00e9']);
    expect(await list('e\u0301')).toEqual(['e\u0301']);
    expect(await list('?\u0301')).toEqual(['e\u0301']);
    rmSync(join(dir, 'e\u0301'));
  });
});
