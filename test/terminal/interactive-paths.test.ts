import fs from 'node:fs';
import path from 'node:path';
import kleur from 'kleur';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalAborted } from '../../src/approval/errors.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { terminalApprover } from '../../src/terminal/terminal-approver.js';
import { tempDir } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';
import { fakeTty, later } from './fake-tty.js';

async function request(
  toolName: string,
  args: Record<string, unknown>,
  files: Record<string, string>,
): Promise<ApprovalRequest> {
  const { toolset } = project(files);
  const r = await toolset.needsApproval(toolName, args);
  if (r.status !== 'needs_approval') throw new Error(JSON.stringify(r));
  return { toolName, args, payload: r.payload, description: r.payload.description };
}
const editA = () =>
  request('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }, { 'a.txt': 'one\ntwo\n' });
const generic: ApprovalRequest = {
  toolName: 'deploy',
  args: { env: 'prod' },
  description: 'deploy(env="prod")',
  payload: {
    type: 'generic',
    description: 'deploy(env="prod")',
    path: '',
    mount: '',
    toolName: 'deploy',
    args: {},
  },
};

const savedPager = process.env.PAGER;
afterEach(() => {
  if (savedPager === undefined) delete process.env.PAGER;
  else process.env.PAGER = savedPager;
});

describe('terminalApprover: interactive paths', () => {
  it('v opens the full view, q returns to the prompt, then y approves; the question names the action', async () => {
    const tty = fakeTty();
    tty.type('v');
    tty.type('q');
    tty.type('y');
    expect(await terminalApprover({ ...tty.io, color: false })(await editA())).toEqual({
      approved: true,
    });
    const screen = tty.plain();
    expect(screen).toContain('lines 1–');
    expect(tty.text()).toContain('\u001b[?1049l');
    expect(screen).toContain('Apply this edit?');
    expect(screen.split('Apply this edit?').length).toBe(3); // asked again after the pager
  });

  it('at 80 columns nothing printed reaches the last column, even with a long path and long lines', async () => {
    const deep = `${'very-long-directory-name/'.repeat(5)}file.ts`;
    const req = await request(
      'write_file',
      { path: `/${deep}`, content: `${'y'.repeat(200)}\nshort\n` },
      { [deep]: 'old\n' },
    );
    const tty = fakeTty({ columns: 80 });
    tty.type('y');
    await terminalApprover({ ...tty.io, color: false })(req);
    const lines = tty.plain().split('\n');
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(79);
    // The path is cut in its middle: the file name and the stats stay.
    expect(lines[0]).toMatch(
      /^┌─ Write: \/very-long-directory-[a-z]*…\/file\.ts \(2 lines, .*\) {2}\+2 −1 ─*$/,
    );
  });

  it('offers only the remember scopes that apply (no file or mount scope for a call without a path)', async () => {
    const tty = fakeTty();
    tty.type('a');
    tty.type('2', '3', '4');
    expect(await terminalApprover({ ...tty.io, color: false })(generic)).toEqual({
      approved: true,
      remember: { scope: 'tool' },
    });
    expect(tty.plain()).not.toContain('[2] this file');
    expect(tty.plain()).toContain('[4] every deploy call');
  });

  it('quitting drops the prompts still waiting (the run is over); a later request is asked again', async () => {
    const tty = fakeTty();
    const approve = terminalApprover({ ...tty.io, color: false });
    const req = await editA();
    tty.type('q');
    const results = await Promise.allSettled([approve(req), approve(req), approve(req)]);
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof ApprovalAborted)).toBe(true);
    expect(tty.plain().split('┌─ Edit').length).toBe(2); // one frame shown
    tty.type('y');
    expect(await approve(req)).toEqual({ approved: true });
  });

  it('aborts (never hangs) when the terminal input ends', async () => {
    const tty = fakeTty();
    const pending = terminalApprover({ ...tty.io })(await editA());
    later(() => tty.input.end());
    await expect(pending).rejects.toBeInstanceOf(ApprovalAborted);
    expect(tty.input.rawModes.at(-1)).toBe(false);
  });

  it('Ctrl-C in the scope picker, the note and the editor confirmation aborts cleanly', async () => {
    const editor = `node -e "require('fs').writeFileSync(process.argv[1],'changed')"`;
    for (const keys of [
      ['a', '\u0003'],
      ['n', 'some', '\u0003'],
      ['e', '\u0003'],
    ]) {
      const tty = fakeTty();
      tty.type(...keys);
      await expect(terminalApprover({ ...tty.io, editor })(await editA())).rejects.toBeInstanceOf(
        ApprovalAborted,
      );
      expect(tty.input.rawModes.at(-1)).toBe(false);
      expect(tty.text().endsWith('\u001b[?25h')).toBe(true);
    }
  });

  it("drops the final newline an editor adds to a proposal that had none (vi's habit)", async () => {
    const editor = `node -e "const f=process.argv[1];const fs=require('fs');fs.writeFileSync(f,fs.readFileSync(f,'utf8').toUpperCase()+'\\n')"`;
    const tty = fakeTty();
    tty.type('e');
    tty.type('v');
    tty.type('q');
    tty.type('y');
    const d = await terminalApprover({ ...tty.io, color: false, editor })(
      await request('write_file', { path: '/n.txt', content: 'abc' }, {}),
    );
    expect(d).toEqual({ approved: true, overrideArgs: { path: '/n.txt', content: 'ABC' } });
    expect(tty.plain()).toContain('Your changes to the proposed content for /n.txt  +1 −1');
  });

  it("pager: 'system' pipes the whole uncut view through $PAGER", async () => {
    const out = path.join(tempDir(), 'paged.txt');
    process.env.PAGER = `node -e "require('fs').writeFileSync(process.argv[1], require('fs').readFileSync(0))" ${JSON.stringify(out)}`;
    const long = `${'z'.repeat(120)}END`;
    const req = await request('write_file', { path: '/l.txt', content: `${long}\n` }, {});
    const tty = fakeTty();
    tty.type('v');
    tty.type('y');
    await terminalApprover({ ...tty.io, color: false, pager: 'system' })(req);
    const paged = fs.readFileSync(out, 'utf8');
    expect(paged).toContain('Write: /l.txt');
    expect(paged).toContain(`1 │ ${long}`);
  });

  it("pager: 'system' falls back to the built-in pager when $PAGER cannot run", async () => {
    process.env.PAGER = 'no-such-pager-command-here';
    const tty = fakeTty();
    tty.type('v');
    tty.type('q');
    tty.type('y');
    await terminalApprover({ ...tty.io, color: false, pager: 'system' })(await editA());
    expect(tty.plain()).toMatch(/lines 1–\d+ of \d+/);
  });

  it('custom thresholds: a preview with an explicit count of hidden lines, never a negative one', async () => {
    const content = `${Array.from({ length: 7 }, (_, i) => `l${i}`).join('\n')}\n`;
    const tty = fakeTty();
    tty.type('y');
    await terminalApprover({
      ...tty.io,
      color: false,
      thresholds: { inline: 5, pager: 8 },
    })(await request('write_file', { path: '/t.txt', content }, {}));
    const screen = tty.plain();
    expect(screen).toContain('│ 4 │ l3');
    expect(screen).not.toContain('│ 5 │ l4');
    expect(screen).toContain('… 3 more lines not shown — press v to view all 7');
  });

  it('colour on does not switch kleur on for the rest of the process', async () => {
    const before = kleur.enabled;
    kleur.enabled = false;
    try {
      const tty = fakeTty();
      tty.type('y');
      await terminalApprover({ ...tty.io, color: true })(await editA());
      expect(tty.text()).toMatch(/\u001b\[3\dm/);
      expect(kleur.enabled).toBe(false);
    } finally {
      kleur.enabled = before;
    }
  });
});
