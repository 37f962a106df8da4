import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { allLines } from '../../src/terminal/diff-view.js';
import { renderPayload } from '../../src/terminal/render-payload.js';
import { colorWanted, createStyle, screenWanted, stripAnsi } from '../../src/terminal/style.js';
import { terminalApprover } from '../../src/terminal/terminal-approver.js';
import { fakeTty } from './fake-tty.js';

const saved = { TERM: process.env.TERM, NO_COLOR: process.env.NO_COLOR };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const big: ApprovalRequest = {
  toolName: 'edit_file',
  args: {},
  description: 'edit',
  payload: {
    type: 'patch',
    description: 'patch',
    path: '/big.txt',
    mount: '/',
    baseSha256: 'x',
    unifiedDiff: `--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,150 @@\n${Array.from({ length: 150 }, (_, i) => `+l${i}`).join('\n')}\n`,
    diffLines: 153,
    added: 150,
    removed: 0,
    hunks: 1,
    fileExists: true,
    relocated: false,
  } as unknown as ApprovalPayload,
};

describe('plain terminals', () => {
  it('TERM=dumb: no colour, no escape sequences at all, not even in the pager', async () => {
    process.env.TERM = 'dumb';
    expect(colorWanted({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(screenWanted({ TERM: 'dumb' })).toEqual({ escapes: false, alternateScreen: false });
    const tty = fakeTty();
    tty.type('q');
    tty.type('y');
    expect(await terminalApprover({ ...tty.io })(big)).toEqual({ approved: true });
    expect(tty.text()).not.toContain('\u001b');
    expect(tty.text()).toContain('lines 1–');
  });

  it('NO_COLOR: no colour and no alternate screen', async () => {
    process.env.NO_COLOR = '1';
    delete process.env.TERM;
    const tty = fakeTty();
    tty.type('q');
    tty.type('y');
    expect(await terminalApprover({ ...tty.io })(big)).toEqual({ approved: true });
    expect(tty.text()).not.toMatch(/\u001b\[[0-9;]*m/);
    expect(tty.text()).not.toContain('\u001b[?1049h');
  });

  it('a deleted binary file is a dim bracketed note, never numbered like content', () => {
    const payload = {
      type: 'delete',
      description: 'delete',
      path: '/logo.png',
      mount: '/',
      baseSha256: 'x',
      fileLines: 0,
      fileBytes: 2048,
      preview: '(binary file, 2048 bytes: not shown)',
      previewTruncated: false,
    } as ApprovalPayload;
    const r = renderPayload(payload, createStyle(true), 77);
    const [line] = allLines(r.body);
    expect(stripAnsi(line!)).toBe('[binary file, 2048 bytes: content not shown]');
    expect(line).toContain('\u001b[2m'); // dim
    expect(r.title).toBe('Delete: /logo.png (binary, 2048 bytes)');
  });
});
