import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { RtPty, sleep } from './rt-pty.js';
import { capture, mkdir } from './screen-helpers.js';

// Promise: "only a key typed for a prompt decides it" — through a real pty.
let s: RtPty | undefined;
afterEach(() => s?.kill());

const generic = (n: number): ApprovalRequest => ({
  toolName: 'deploy',
  args: { n },
  description: `deploy #${n}`,
  payload: {
    type: 'generic',
    description: `deploy #${n}`,
    path: '',
    mount: '',
    toolName: 'deploy',
    args: {},
  },
});

async function denyAt(s: RtPty, n: number): Promise<void> {
  await s.atPrompt(n);
  s.type('n');
  await s.waitFor('Tell the agent', n);
  s.type('\r');
}

describe('keys through a real pty', () => {
  it('a bracketed paste of "y\\r" at an armed prompt decides nothing', async () => {
    s = new RtPty([generic(1)]);
    await s.atPrompt(1);
    s.type('\u001b[200~y\r\u001b[201~');
    await sleep(600);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  }, 30_000);

  it('a paste whose end marker comes in a later chunk, then y in the same chunk, decides nothing', async () => {
    s = new RtPty([generic(1)]);
    await s.atPrompt(1);
    s.type('\u001b[200~hello y\r');
    await sleep(30);
    s.type('world\u001b[201~y');
    await sleep(600);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  }, 30_000);

  it('TERM=dumb: a pasted "y\\r" (one burst, no bracketing possible) at an armed prompt does not approve', async () => {
    s = new RtPty([generic(1)], { TERM: 'dumb' });
    await s.atPrompt(1);
    s.type('yes, go ahead\r');
    await sleep(800);
    s.type('n');
    await sleep(300);
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  }, 30_000);

  it('TERM=dumb: no escape sequence is written at all', async () => {
    s = new RtPty([generic(1)], { TERM: 'dumb' });
    await s.atPrompt(1);
    s.type('n');
    await sleep(300);
    s.type('\r');
    await s.decisions();
    expect(JSON.stringify(s.screen.match(/\u001b[^\r\n]{0,8}/g))).toBe('null');
  }, 30_000);

  it('"n" + Enter + "y" in one burst: the queued second prompt is not approved', async () => {
    s = new RtPty([generic(1), generic(2)], { PARALLEL: '1' });
    await s.atPrompt(1);
    s.type('n\ry');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent', 2);
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }, { approved: false }]);
  }, 30_000);

  it('"q" then "y" in one burst in the pager: the prompt under it is not approved', async () => {
    const dir = mkdir({});
    const content = Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n');
    const req = await capture(dir, 'write_file', { path: '/big.txt', content });
    s = new RtPty([req]);
    await s.waitFor('match'.length ? 'line 1' : '', 1);
    await sleep(900);
    s.type('qy');
    await s.atPrompt(1);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  }, 30_000);

  it('y typed while $EDITOR runs (it never reads the tty) does not approve the edited version', async () => {
    const dir = mkdir({ 'a.txt': 'hello\n' });
    const req = await capture(dir, 'write_file', { path: '/a.txt', content: 'hello world\n' });
    const editor = path.join(dir, 'ed.sh');
    fs.writeFileSync(editor, '#!/bin/sh\necho EDITING\nsleep 1.5\nprintf "edited by me\\n" > "$1"\n', {
      mode: 0o755,
    });
    s = new RtPty([req], { EDITOR_CMD: editor });
    await s.atPrompt(1);
    s.type('e');
    await s.waitFor('EDITING');
    await sleep(200);
    s.type('y');
    await sleep(400);
    s.type('\r');
    // wait for the confirmation screen and past its arming delay, then say no
    await sleep(2500);
    s.type('x');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    const d = await s.decisions();
    expect(d).toEqual([{ approved: false }]);
  }, 30_000);

  it('$EDITOR result with escape sequences is shown sanitised', async () => {
    const dir = mkdir({ 'a.txt': 'hello\n' });
    const req = await capture(dir, 'write_file', { path: '/a.txt', content: 'hello world\n' });
    const editor = path.join(dir, 'ed.sh');
    fs.writeFileSync(
      editor,
      '#!/bin/sh\nprintf "ok\\033]52;c;ZXZpbA==\\007 \\033[?1049h \\033P1;2|x\\033\\\\ \\342\\200\\256gnp\\n" > "$1"\n',
      { mode: 0o755 },
    );
    s = new RtPty([req], { EDITOR_CMD: editor });
    await s.atPrompt(1);
    const before = s.screen.length;
    s.type('e');
    await sleep(2500);
    const shown = s.screen.slice(before);
    s.type('x');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    await s.decisions();
    expect(shown).not.toContain('\u001b]52');
    expect(shown).not.toContain('\u001bP');
    expect(shown).not.toContain('\u202e');
    expect(shown).toContain('␛]52');
  }, 30_000);

  it('pager search: a pasted OSC 52 / DCS / bidi is echoed sanitised', async () => {
    const dir = mkdir({});
    const content = Array.from({ length: 150 }, (_, i) => `line ${i}`).join('\n');
    const req = await capture(dir, 'write_file', { path: '/big.txt', content });
    s = new RtPty([req]);
    await s.waitFor('line 1');
    await sleep(900);
    const before = s.screen.length;
    s.type('/');
    await sleep(200);
    s.type('\u001b[200~a\u001b]52;c;ZXZpbA==\u0007b\u001bP1|x\u001b\\c\u202ed\u001b[201~');
    await sleep(400);
    const shown = s.screen.slice(before);
    s.type('\u001b');
    await sleep(200);
    s.type('q');
    await s.atPrompt(1);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    await s.decisions();
    expect(shown).not.toContain('\u001b]52');
    expect(shown).not.toContain('\u001bP');
    expect(shown).not.toContain('\u202e');
  }, 30_000);

  it('resize to 20 columns mid-prompt: still only a typed key decides (n → denied)', async () => {
    s = new RtPty([generic(1)]);
    await s.atPrompt(1);
    s.resize(20, 10);
    await sleep(300);
    s.type('y'.length ? '' : '');
    s.resize(80, 24);
    await sleep(300);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  }, 30_000);

  it('Ctrl-Z byte at the prompt is ignored (raw mode), decision by the next key', async () => {
    s = new RtPty([generic(1)]);
    await s.atPrompt(1);
    s.type('\u001a');
    await sleep(900);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  }, 30_000);
});
