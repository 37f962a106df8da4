/**
 * rt60: edit_lines refusing where the file leaves no doubt which line was read, or refusing
 * with a message that is not true (all fixed). Two kinds of refusal stay by design and are
 * pinned here: a blank or brace line that moved since the read needs its exact line number
 * (low-entropy rule of the hash-anchored spec), and a copy that keeps one of the line's
 * neighbours nearly as well (the "one line longer" rule) is not told apart from the line.
 * "Unambiguous" below: every longest common subsequence of the read text and the current
 * text keeps the read line at one place (checked with lcsPlaces in each test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { hex, lineHash32 } from '../../src/edit/line-hash.js';
import { get, lcsPlaces, mkdir, put, readAll, rm, toolset } from './rt60-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(rm));

async function setup(lines: string[]) {
  const dir = mkdir();
  dirs.push(dir);
  put(dir, 'f.txt', `${lines.join('\n')}\n`);
  const ts = toolset(dir);
  const anchors = await readAll(ts, '/f.txt');
  return { dir, ts, anchors };
}
const distinct = (n: number) => Array.from({ length: n }, (_, k) => `  step${k}(ctx);`);
async function replace(ts: any, hash: string) {
  return ts.callTool('edit_lines', {
    path: '/f.txt',
    operations: [{ op: 'replace_line', hash, content: 'NEW' }],
    sanity: 'off',
  });
}
/** 1-based numbers of the lines that are now NEW. */
const newAt = (dir: string) =>
  get(dir, 'f.txt')
    .split('\n')
    .flatMap((l, k) => (l === 'NEW' ? [k + 1] : []));
const outcome = (out: any, dir: string) => (out.ok ? newAt(dir) : `${out.error.code}: ${out.error.message}`);

/** Refused by design, nothing changed. */
const refused = (out: any, dir: string, text: string, code: string) => {
  expect(out.ok ? newAt(dir) : out.error.code).toBe(code);
  expect(get(dir, 'f.txt')).toBe(text);
};

describe('rt60 low-entropy lines whose place is certain', () => {
  it('the only blank line of a file, shifted by one line inserted 195 lines above, needs its line number', async () => {
    const lines = distinct(400);
    lines[200] = '';
    const { dir, ts, anchors } = await setup(lines);
    const now = [...lines];
    now.splice(5, 0, '  inserted(ctx);');
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    expect(lcsPlaces(lines, now, 200, 4)).toEqual([201]);
    const out = await replace(ts, `${anchors[200]!.line}#${anchors[200]!.hash}`);
    refused(out, dir, `${now.join('\n')}\n`, 'anchor_low_entropy');
  });

  it('a closing brace in real-looking code, after an import added at the top, is refused (low entropy)', async () => {
    const lines: string[] = [];
    for (let f = 0; f < 60; f++)
      lines.push(`function handler${f}(req) {`, `  return serve${f}(req);`, '}', '');
    const { dir, ts, anchors } = await setup(lines);
    const now = ["import { serve } from './serve.js';", ...lines];
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    const i = 4 * 30 + 2; // the `}` of handler30
    expect(lcsPlaces(lines, now, i, 4)).toEqual([i + 1]);
    const out = await replace(ts, `${anchors[i]!.line}#${anchors[i]!.hash}`);
    refused(out, dir, `${now.join('\n')}\n`, 'anchor_low_entropy');
  });

  /**
   * 300 distinct lines with `low` at 51, 151 and 251; read; a line inserted at 11 that the toolset
   * sees (a failed edit_file loads the file); the user undoes it byte for byte; read line 151 replaced.
   */
  async function afterUndoneChange(low: string) {
    const lines = distinct(300);
    for (const k of [50, 150, 250]) lines[k] = low;
    const { dir, ts, anchors } = await setup(lines);
    const changed = [...lines];
    changed.splice(10, 0, '  inserted(ctx);');
    put(dir, 'f.txt', `${changed.join('\n')}\n`);
    const seen: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: 'no such text',
      new_string: 'x',
    });
    expect(seen.ok).toBe(false);
    put(dir, 'f.txt', `${lines.join('\n')}\n`);
    const out: any = await replace(ts, `${anchors[150]!.line}#${anchors[150]!.hash}`);
    return { dir, lines, out };
  }

  it('a file reverted to the read text after a change the toolset saw: a brace still at its read line is followed', async () => {
    const { dir, out } = await afterUndoneChange('}');
    // Was: anchor_low_entropy "Anchor 151#… points at line 152 ("}")" — line 152 of the file is
    // `  step151(ctx);`: the number is the intermediate version's, not the file's.
    expect(outcome(out, dir)).toEqual([151]);
  });

  it('a refusal after a revert names a line of the current file (message truth)', async () => {
    const { lines, out } = await afterUndoneChange('');
    if (!out.ok) {
      const m = /points at line (\d+)/.exec(out.error.message);
      if (m) expect(lines[Number(m[1]) - 1]).toBe(''); // the line named must be the blank it claims
    }
  });
});

describe('rt60 slipped or current line numbers with a twin anchor, after a change', () => {
  it('a repeated statement: the model gives its current number (an insert above shifted it by one)', async () => {
    const lines = distinct(400);
    lines[200] = '  return null;';
    lines[300] = '  return null;';
    const { dir, ts, anchors } = await setup(lines);
    const now = [...lines];
    now.splice(5, 0, '  inserted(ctx);');
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    expect(lcsPlaces(lines, now, 200, 4)).toEqual([201]);
    const out: any = await replace(ts, `202#${anchors[200]!.hash}`);
    // Was: anchor_stale "is not one your latest hashed read … gave: it is from an earlier read" —
    // it is from the latest (and only) hashed read.
    expect(outcome(out, dir)).toEqual([202]);
  });

  it('a repeated statement that did not move, one off in its number, after an insert 190 lines below', async () => {
    const lines = distinct(400);
    lines[200] = '  return null;';
    lines[300] = '  return null;';
    const { dir, ts, anchors } = await setup(lines);
    const now = [...lines];
    now.splice(390, 0, '  inserted(ctx);');
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    const out: any = await replace(ts, `200#${anchors[200]!.hash}`);
    expect(outcome(out, dir)).toEqual([201]);
  });

  it('a line with unique text whose six hex digits another line shares, slipped by 2 after a far change', async () => {
    // two different statements with one 6-digit line hash prefix: the read shows them with context anchors
    const seen = new Map<string, number>();
    let a = -1;
    let b = -1;
    for (let k = 0; a < 0; k++) {
      const key = hex(lineHash32(`  total += weight${k};`), 6);
      const prev = seen.get(key);
      if (prev !== undefined) [a, b] = [prev, k];
      else seen.set(key, k);
    }
    const lines = distinct(600);
    lines[100] = `  total += weight${a};`;
    lines[400] = `  total += weight${b};`;
    const { dir, ts, anchors } = await setup(lines);
    expect(anchors[100]!.hash).not.toBe(hex(lineHash32(lines[100]!), 6)); // a context anchor
    const now = [...lines];
    now.splice(550, 0, '  inserted(ctx);'); // 450 lines below
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    const out: any = await replace(ts, `103#${anchors[100]!.hash}`);
    expect(outcome(out, dir)).toEqual([101]);
  });
});

describe('rt60 a copied block pasted just above its original', () => {
  it('the statement read in the original block is refused: a copy keeps a neighbour nearly as well', async () => {
    const lines = [
      'function save(user) {',
      '  const id = user.id;',
      '  validate(user);',
      '  store.put(id, user);',
      "  log('saved', id);",
      '}',
    ];
    const { dir, ts, anchors } = await setup(lines);
    // the user copies lines 3-5 and pastes them above line 2
    const now = [
      lines[0]!,
      lines[2]!,
      lines[3]!,
      lines[4]!,
      lines[1]!,
      lines[2]!,
      lines[3]!,
      lines[4]!,
      lines[5]!,
    ];
    put(dir, 'f.txt', `${now.join('\n')}\n`);
    expect(lcsPlaces(lines, now, 3, 6)).toEqual([6]);
    const out: any = await replace(ts, `${anchors[3]!.line}#${anchors[3]!.hash}`);
    refused(out, dir, `${now.join('\n')}\n`, 'anchor_stale');
  });
});

describe('rt60 messages', () => {
  it('a line replaced by the toolset’s own edit_file is not said to be replaced by edit_lines', async () => {
    const lines = distinct(50);
    const { dir, ts, anchors } = await setup(lines);
    const e: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: '  step20(ctx);\n',
      new_string: '  changed(ctx);\n',
    });
    expect(e.ok).toBe(true);
    const out: any = await replace(ts, `${anchors[20]!.line}#${anchors[20]!.hash}`);
    expect(out.ok).toBe(false);
    expect(out.error.code).toBe('anchor_stale');
    expect(get(dir, 'f.txt')).not.toContain('NEW');
    expect(out.error.message).not.toMatch(/edit_lines calls/);
  });
});
