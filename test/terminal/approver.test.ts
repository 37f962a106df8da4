import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { NON_TTY_NOTE, terminalApprover } from '../../src/terminal/terminal-approver.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';
import { fakeTty } from './fake-tty.js';

async function editRequest(
  lines = 3,
): Promise<{ request: ApprovalRequest; dir: string; toolset: ReturnType<typeof project>['toolset'] }> {
  const text = Array.from({ length: lines }, (_, i) => `line ${i + 1}`).join('\n');
  const { dir, toolset } = project({ 'a.txt': `${text}\n` });
  const args = { path: '/a.txt', old_string: 'line 2', new_string: 'line two' };
  const r = await toolset.needsApproval('edit_file', args);
  if (r.status !== 'needs_approval') throw new Error('expected needs_approval');
  return {
    request: { toolName: 'edit_file', args, payload: r.payload, description: r.payload.description },
    dir,
    toolset,
  };
}

describe('terminalApprover', () => {
  it('approves once with y, showing the edit at 80 columns', async () => {
    const tty = fakeTty();
    const { request } = await editRequest();
    tty.type('y');
    expect(await terminalApprover({ ...tty.io, color: false })(request)).toEqual({
      approved: true,
    });
    const screen = tty.plain();
    expect(screen).toContain('┌─ Edit: /a.txt (line 2)  +1 −1');
    expect(screen).toContain('[y] yes');
    expect(tty.input.rawModes).toEqual([true, false]);
  });

  it('denies with a note for the model', async () => {
    const tty = fakeTty();
    const { request } = await editRequest();
    tty.type('n', 'use a constant', '\r');
    expect(await terminalApprover({ ...tty.io })(request)).toEqual({
      approved: false,
      note: 'use a constant',
    });
    tty.type('\u001b', '\r');
    expect(await terminalApprover({ ...tty.io })(request)).toEqual({
      approved: false,
    });
  });

  it.each([
    ['1', 'call'],
    ['2', 'file'],
    ['3', 'mount'],
    ['4', 'tool'],
  ] as const)('remembers with scope key %s → %s, and the picker names the scope', async (key, scope) => {
    const tty = fakeTty();
    const { request } = await editRequest();
    tty.type('a');
    tty.type(key);
    expect(await terminalApprover({ ...tty.io, color: false })(request)).toEqual({
      approved: true,
      remember: { scope },
    });
    expect(tty.plain()).toContain('[2] this file (/a.txt)');
    expect(tty.plain()).toContain('[3] everything under /');
  });

  it('opens the pager at once for big diffs, scrolls, searches, and returns with q', async () => {
    const tty = fakeTty({ rows: 20 });
    const { request } = await editRequest(3);
    const big = Array.from({ length: 500 }, (_, i) => `+added ${i}`).join('\n');
    const payload = {
      ...request.payload,
      unifiedDiff: `--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,500 @@\n${big}\n`,
      added: 500,
      removed: 0,
    };
    tty.type('G', 'g', ' ', '/', 'added 321', '\r', 'q');
    tty.type('y');
    const decision = await terminalApprover({ ...tty.io, color: false })({
      ...request,
      payload,
    } as ApprovalRequest);
    expect(decision).toEqual({ approved: true });
    const screen = tty.plain();
    // 20 rows: title + 17 lines + status + the one-line footer.
    expect(screen).toContain('lines 485–501 of 501');
    expect(screen).toContain('lines 18–34 of 501');
    expect(screen).toContain('lines 323–339 of 501');
    expect(screen).toContain('[y] yes'); // the choices stay on screen in the pager
    expect(screen).toMatch(/… \d+ more lines not shown — press v to view all 501/);
    expect(tty.text()).toContain('\u001b[?1049l'); // alternate screen left
  });

  it('lets the user edit the proposal in $EDITOR and shows their change before applying it', async () => {
    const tty = fakeTty();
    const { request, dir, toolset } = await editRequest();
    const editor = `node -e "const f=process.argv[1];require('fs').writeFileSync(f,'line 2 (edited by hand)')"`;
    tty.type('e');
    tty.type('y');
    const approve = terminalApprover({ ...tty.io, color: false, editor });
    const decision = await approve(request);
    expect(decision).toMatchObject({
      approved: true,
      overrideArgs: { new_string: 'line 2 (edited by hand)' },
    });
    // The last line has no final newline: its - and + rows are paired across the note, words marked.
    expect(tty.plain()).toContain('+line {+2 (edited by hand)+}');
    // Through the approval layer the user's version is what gets written, and the model is told.
    tty.type('e');
    tty.type('y');
    const gated = new ApprovalToolset(toolset, { approve });
    const outcome = await gated.callTool('edit_file', request.args);
    expect(outcome.ok && (outcome.data as { user_modified: boolean }).user_modified).toBe(true);
    expect(read(dir, 'a.txt')).toBe('line 1\nline 2 (edited by hand)\nline 3\n');
  });

  it('lists and revokes remembered approvals', async () => {
    const tty = fakeTty();
    const { request } = await editRequest();
    const memory = new ApprovalMemory();
    memory.remember(request, 'tool');
    tty.type('l');
    tty.type('1');
    tty.type('y');
    await terminalApprover({ ...tty.io, memory, color: false })(request);
    expect(tty.plain()).toContain('Revoked: every edit_file call');
    expect(memory.list()).toEqual([]);
  });

  it("fails closed unless both input and output are a terminal, in the system's words, with a line on stderr", async () => {
    const { request } = await editRequest();
    const notTty = Object.assign(new PassThrough(), { isTTY: false });
    for (const io of [
      { input: notTty, output: fakeTty().output },
      { input: fakeTty().input, output: Object.assign(new PassThrough(), { isTTY: false }) },
    ]) {
      const notice = fakeTty();
      const d = await terminalApprover({ ...io, notice: notice.output })(request);
      expect(d).toEqual({ approved: false, note: NON_TTY_NOTE, decidedBy: 'system' });
      expect(d.note).toMatch(/^No terminal to ask the user; refused\./);
      expect(notice.text()).toBe(
        'sandbox-approval: no terminal to ask the user about edit_file /a.txt; refused.\n',
      );
      // The output that is not a terminal got no prompt.
      if ('read' in io.output) expect(io.output.read()).toBeNull();
    }
    const notice = fakeTty();
    expect(
      await terminalApprover({
        input: notTty,
        output: fakeTty().output,
        nonInteractive: 'approve',
        notice: notice.output,
      })(request),
    ).toEqual({ approved: true });
    expect(notice.text()).toContain('approved by the nonInteractive policy');
  });

  it('aborts on Ctrl-C or q, restoring raw mode, also from inside the pager', async () => {
    const { request } = await editRequest();
    for (const keys of [['\u0003'], ['q'], ['v', '\u0003'], ['n', '\u0003']]) {
      const tty = fakeTty();
      tty.type(...keys);
      await expect(terminalApprover({ ...tty.io })(request)).rejects.toBeInstanceOf(ApprovalAborted);
      expect(tty.input.rawModes.at(-1)).toBe(false);
      expect(tty.text()).toContain('\u001b[?25h');
    }
  });

  it('shows one prompt at a time for parallel calls, numbering them', async () => {
    const tty = fakeTty();
    const { request } = await editRequest();
    const approve = terminalApprover({ ...tty.io, color: false });
    tty.type('y');
    tty.type('n', '\r');
    const [a, b] = await Promise.all([approve(request), approve(request)]);
    expect(a).toEqual({ approved: true });
    expect(b).toEqual({ approved: false });
    const screen = tty.plain();
    expect(screen).toContain('Approval 1 of 2');
    expect(screen.indexOf('Approval 2 of 2')).toBeGreaterThan(screen.indexOf('Approval 1 of 2'));
  });
});
