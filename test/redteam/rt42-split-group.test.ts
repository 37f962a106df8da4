// rt42: a line read is followed into the current file when the forward and the reversed
// diffs agree and no part of the group next to its kept stretch slides across it. But a
// group can SPLIT: its far part (a copy of the twins) can move to the other side of the
// stretch while its near part (a distinct line) stays. That alignment costs the same,
// is neither the forward nor the reversed greedy choice, and the slide check (which only
// tries parts touching the stretch) does not see it. Each case below is one (read, file)
// pair reached by two or three histories in which the line read ends up at different
// places; only a refusal is right for all of them. Today edit_lines picks one.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectExactOrRefused, readAnchors, setup } from './rt40-harness.js';

const SYM: Record<string, string> = { '0': 'call();', '1': 'other();', '2': 'third();' };
const text = (s: string) => `${['// head', ...[...s].map((c) => SYM[c]!), '// foot'].join('\n')}\n`;

interface Case {
  name: string;
  read: string;
  now: string;
  /** 0-based in `read` (without the head line). */
  at: number;
  /** Where the line read can be in `now` (0-based, without the head line), one history each. */
  targets: number[];
}

const cases: Case[] = [
  // read: call call. Now: call call other call. History A: "other call" appended after the
  // twins (line 0 stays at 0). History B: a "call" inserted on top and "other" after the
  // first read twin (line 0 is now at 1).
  { name: 'insertion split: 00 -> 0010', read: '00', now: '0010', at: 0, targets: [0, 1] },
  // three histories for one line: 010 -> 0001, the read line 0 can be at 0, 1 or 2.
  { name: 'middle of three: 010 -> 0001', read: '010', now: '0001', at: 0, targets: [0, 1, 2] },
  // deletion: read call call call other call; now call call call. Removing "other call"
  // (line 1 stays at 1) or the first call and "other" (line 1 is now at 0).
  { name: 'deletion split: 00010 -> 000', read: '00010', now: '000', at: 1, targets: [0, 1] },
  // the line far from the head: 00 -> 10100, line 1 can be at 3 or 4.
  { name: 'insertion split at the end: 00 -> 10100', read: '00', now: '10100', at: 1, targets: [3, 4] },
];

describe('rt42: a split group re-aligns a twin at equal cost', () => {
  for (const c of cases)
    for (const t of c.targets)
      it(`${c.name}: history where read line ${c.at} is now line ${t}`, async () => {
        const { ts, file, vpath } = setup(text(c.read));
        const anchors = await readAnchors(ts, vpath);
        fs.writeFileSync(file, text(c.now));
        const before = fs.readFileSync(file, 'utf8');
        const r = await ts.callTool('edit_lines', {
          path: vpath,
          operations: [{ op: 'replace_line', hash: anchors[c.at + 1]!, content: 'EDITED();' }],
          sanity: 'off',
        });
        const after = fs.readFileSync(file, 'utf8');
        const lines = before.split('\n');
        lines[t + 1] = 'EDITED();';
        expectExactOrRefused(r, before, after, lines.join('\n'), `${c.name} (target ${t})`);
      });
});

describe('rt42: the same through edit_file calls only', () => {
  it('a twin inserted on top, then a line after the read twin: the read twin is not the top one', async () => {
    const { ts, file, vpath } = setup('// head\ncall();\ncall();\n// foot\n');
    const anchors = await readAnchors(ts, vpath);
    // The read's line 2 (first call) gets a new twin above it …
    let r = await ts.callTool('edit_file', {
      path: vpath,
      old_string: '// head\n',
      new_string: '// head\ncall();\n',
    });
    expect(r.ok).toBe(true);
    // … and "other();" right after it (it is now line 3; the second read twin is line 4).
    r = await ts.callTool('edit_file', {
      path: vpath,
      old_string: 'call();\ncall();\n// foot\n',
      new_string: 'call();\nother();\ncall();\n// foot\n',
    });
    expect(r.ok).toBe(true);
    const before = fs.readFileSync(file, 'utf8');
    expect(before).toBe('// head\ncall();\ncall();\nother();\ncall();\n// foot\n');
    r = await ts.callTool('edit_lines', {
      path: vpath,
      operations: [{ op: 'replace_line', hash: anchors[1]!, content: 'EDITED();' }],
      sanity: 'off',
    });
    expectExactOrRefused(
      r,
      before,
      fs.readFileSync(file, 'utf8'),
      '// head\ncall();\nEDITED();\nother();\ncall();\n// foot\n',
      'edit_file history',
    );
  });
});
