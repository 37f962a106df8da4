// rt55: undo() running while other calls change files (the undo of a big file takes a while:
// its write and fsync). Each call is started once the undo is writing (its temp file is there).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, approveAll } from '../../src/index.js';
import { MiB, tmp, toolsetOn } from './rt55-helpers.js';

const line = `${'abcdefghij'.repeat(7)}\n`;
const big = (mark: string, mib = 16) => `${mark}\n${line.repeat(Math.ceil((mib * MiB) / line.length))}`;

/** Resolves once a temp file of an atomic write shows up in `dir` (names other than `known`). */
async function writing(dir: string, known: string[]): Promise<void> {
  for (let i = 0; i < 200_000; i++) {
    if (fs.readdirSync(dir).some((n) => !known.includes(n))) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('no temp file seen');
}

describe('rt55 undo racing other calls', () => {
  // Was broken (fixed; red team rt55): undo() takes the journal's last entry before it locks the file, then pops whatever entry is last when it
  // is done: a change of another file that finished meanwhile loses its journal entry (it can never be undone) and the
  // entry just undone stays in history(); the next undo() fails with state_mismatch.
  it('undo of a big file while another file is deleted: the delete stays undoable', async () => {
    const dir = tmp({ 'x.txt': big('<<X>>'), 'y.txt': 'hello y\n' });
    const ts = toolsetOn(dir);
    const gated = new ApprovalToolset(ts, { approve: approveAll() });
    expect(
      (
        (await gated.callTool('edit_file', {
          path: '/x.txt',
          old_string: '<<X>>',
          new_string: '<<X1>>',
        })) as any
      ).ok,
    ).toBe(true);
    const undo = gated.undo();
    await writing(dir, ['x.txt', 'y.txt']);
    const d = (await gated.callTool('delete_file', { path: '/y.txt' })) as any;
    const u = (await undo) as any;
    expect(u.ok).toBe(true);
    expect(d.ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'x.txt'), 'utf8').startsWith('<<X>>\n')).toBe(true);
    expect(fs.existsSync(path.join(dir, 'y.txt'))).toBe(false);
    // what is left to undo is the delete of y.txt, and undo() brings y.txt back
    expect(gated.history().map((h) => `${h.toolName} ${h.path}`)).toEqual(['delete_file /y.txt']);
    const u2 = (await gated.undo()) as any;
    expect(u2.ok, JSON.stringify(u2.error)).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'y.txt'), 'utf8')).toBe('hello y\n');
  }, 60_000);

  // Was broken (fixed; red team rt55): the undo of a move locks only the destination; it checks that the source name is free, then writes the
  // content back there without the source's lock: a write_file creating that name meanwhile (any toolset) reports
  // success (created: true) and is then silently replaced by the undo's rename.
  it('undo of a big move while another toolset moves a file to the source name: no update lost', async () => {
    const content = big('<<S>>');
    const dir = tmp({ 's.txt': content, 'y.txt': 'the only copy of y\n' });
    const ts = toolsetOn(dir);
    const other = toolsetOn(dir);
    expect(((await ts.callTool('move_file', { source: '/s.txt', destination: '/d.txt' })) as any).ok).toBe(
      true,
    );
    const undo = ts.undo();
    await writing(dir, ['d.txt', 'y.txt']);
    const m = (await other.callTool('move_file', { source: '/y.txt', destination: '/s.txt' })) as any;
    const u = (await undo) as any;
    const names = fs.readdirSync(dir).sort();
    const all = names.map((n) => fs.readFileSync(path.join(dir, n), 'utf8'));
    // y's bytes and the big file's bytes are both still somewhere (or one call was refused and left things as they were)
    expect(
      all.includes('the only copy of y\n'),
      `y's content is gone (move ok: ${m.ok}, undo ok: ${u.ok}, files: ${names})`,
    ).toBe(true);
    expect(all.includes(content)).toBe(true);
  }, 60_000);
});
