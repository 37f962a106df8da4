import { describe, expect, it } from 'vitest';
import { terminalApprover } from '../../src/terminal/terminal-approver.js';
import { displayWidth } from '../../src/text/display-width.js';
import { deployRequest } from './deploy-request.js';
import { fakeTty } from './fake-tty.js';

const ask = deployRequest;

/** Asks two requests in turn (as an agent does) and returns both decisions. */
async function twoPrompts(tty: ReturnType<typeof fakeTty>, io = tty.io) {
  const approve = terminalApprover({ ...io, color: false });
  const first = await approve(ask(1));
  const second = await approve(ask(2));
  return [first, second];
}

describe('only a key pressed for the prompt on screen decides it (injected terminal)', () => {
  it('`yy` at one prompt approves that one only; the next is decided by its own key', async () => {
    const tty = fakeTty();
    tty.type('y', 'y');
    tty.type('n', '\r');
    expect(await twoPrompts(tty)).toEqual([{ approved: true }, { approved: false }]);
  });

  it('y or Enter typed while the agent is busy (before the prompt is drawn) is discarded', async () => {
    for (const early of ['y', '\r', 'a1']) {
      const tty = fakeTty();
      tty.typeNow(early);
      tty.type('n', '\r');
      expect(await terminalApprover({ ...tty.io, color: false })(ask(1))).toEqual({ approved: false });
    }
  });

  it('a key arriving after the prompt is drawn but within the arming delay is discarded', async () => {
    const tty = fakeTty();
    let prompts = 0;
    const onPrompt = () => {
      if (++prompts === 1) tty.typeNow('y'); // same clock tick as the draw
      tty.onPrompt();
    };
    tty.type('n', '\r');
    expect(await terminalApprover({ ...tty.io, onPrompt, color: false })(ask(1))).toEqual({
      approved: false,
    });
  });

  it('a pasted two-line deny note is one note and decides nothing after it', async () => {
    const tty = fakeTty();
    tty.type('n', '\u001b[200~first line\nyes, and edit\u001b[201~', '\r');
    tty.type('n', '\r');
    expect(await twoPrompts(tty)).toEqual([
      { approved: false, note: 'first line yes, and edit' },
      { approved: false },
    ]);
    expect(tty.text()).toContain('\u001b[?2004h'); // paste bracketing on while reading…
    expect(tty.text().lastIndexOf('\u001b[?2004l')).toBeGreaterThan(tty.text().lastIndexOf('\u001b[?2004h'));
  });

  it('an unbracketed multi-line paste ends the note at its first line; the rest is dropped', async () => {
    const tty = fakeTty();
    tty.type('n', 'first line\ryes\re\r');
    tty.type('n', '\r');
    expect(await twoPrompts(tty)).toEqual([{ approved: false, note: 'first line' }, { approved: false }]);
  });

  it('a paste at the prompt is never a decision key, and what follows it in the same burst is dropped', async () => {
    const tty = fakeTty();
    tty.type('\u001b[200~y\u001b[201~', 'y');
    tty.type('n', '\r');
    expect(await terminalApprover({ ...tty.io, color: false })(ask(1))).toEqual({ approved: false });
  });

  it('Ctrl-C typed early still stops the run', async () => {
    const tty = fakeTty();
    tty.typeNow('\u0003');
    await expect(terminalApprover({ ...tty.io, color: false })(ask(1))).rejects.toThrow();
  });
});

describe('the deny note line', () => {
  it('echoes a long (wide-character) note by its tail, never wrapping the line', async () => {
    const tty = fakeTty({ columns: 40 });
    tty.type('n', '字'.repeat(50), '\r');
    const approve = terminalApprover({ ...tty.io, color: false, width: 40 });
    expect(await approve(ask(1))).toEqual({ approved: false, note: '字'.repeat(50) });
    const echoes = tty
      .text()
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .split(/[\r\n]/)
      .filter((l) => l.startsWith('> '));
    expect(echoes.length).toBeGreaterThan(1);
    for (const e of echoes) expect(displayWidth(e)).toBeLessThanOrEqual(39);
  });
});
