// rt43 (over-refusal): after edit_lines, its result says anchors before must_refresh_from_line (through
// anchors_valid_through) are still valid. A twin's anchor from the read, for a line ABOVE the edit, is
// refused (anchor_stale "no longer exists in the file") when the edit changed how reads show that twin: its
// position anchor's salt, or its context anchor turning into a position anchor because the edit gave another
// twin the same neighbours. Nobody else touched the file; the line is untouched and where it was.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnchors, setup } from './rt40-harness.js';

async function scenario(text: string, editAt: number, newContent: string, useAt: number) {
  const { ts, file, vpath } = setup(text);
  const a = await readAnchors(ts, vpath);
  const e: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: a[editAt]!, content: newContent }],
    sanity: 'off',
  });
  expect(e.ok, JSON.stringify(e.error)).toBe(true);
  expect(useAt + 1).toBeLessThan(e.data.must_refresh_from_line);
  expect(useAt + 1).toBeLessThanOrEqual(e.data.anchors_valid_through);
  const before = fs.readFileSync(file, 'utf8');
  const r: any = await ts.callTool('edit_lines', {
    path: vpath,
    operations: [{ op: 'replace_line', hash: a[useAt]!, content: 'FINAL' }],
    sanity: 'off',
  });
  const detail = `${a[useAt]} (line ${useAt + 1}, valid through ${e.data.anchors_valid_through}): ${r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`}`;
  expect(r.ok, detail).toBe(true);
  const lines = before.split('\n');
  lines[useAt] = 'FINAL';
  expect(fs.readFileSync(file, 'utf8'), detail).toBe(lines.join('\n'));
}

describe('rt43: a read anchor above the last edit, which the result calls valid', () => {
  it('three identical lines: edit line 2, then line 1 by the read anchor', async () => {
    await scenario('  return 1;\n  return 1;\n  return 1;\n', 1, '// r0', 0);
  });
  it('a twin with a unique context loses it: an edit far below gives another twin the same neighbours', async () => {
    const text = [
      '// top',
      'x();',
      '}',
      'y();',
      '// a',
      '// b',
      '// c',
      '// d',
      '// e',
      'x();',
      '}',
      'z();',
      '// end',
      '',
    ].join('\n');
    // line 3 "}" is shown by its context anchor (x();, y();). Editing line 12 z(); → y(); gives line 11 the same context.
    await scenario(text, 11, 'y();', 2);
  });
  it('blank lines between blocks: edit the last block, then a blank line near the top', async () => {
    const blocks: string[] = [];
    for (let b = 0; b < 6; b++) blocks.push(`function f${b}() {`, '  return 1;', '}', '');
    const text = `${blocks.join('\n')}\n`;
    for (const useAt of [1, 2, 3]) await scenario(text, 21, '  return 2;', useAt);
  });
});
