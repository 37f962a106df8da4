import { afterEach, describe, expect, it } from 'vitest';
import { PtySession } from './pty/pty-session.js';

// The key-leak cases of issue 11 through a real pseudo-terminal (node-pty): the program reads
// its own stdin/stdout TTY in raw mode; bytes arrive when the kernel delivers them.
let session: PtySession | undefined;
afterEach(() => session?.kill());
const start = (env: Record<string, string>) => {
  session = new PtySession(env);
  return session;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('key leaks through a real pty', () => {
  it('`yy` at the first prompt approves it, and not the second', async () => {
    const s = start({ COUNT: '2', BUSY_MS: '300' });
    await s.atPrompt(1);
    s.type('yy');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: true }, { approved: false }]);
  });

  it('y and Enter typed while the agent is busy, before the prompt is drawn, do not approve', async () => {
    const s = start({ COUNT: '1', BUSY_MS: '1500' });
    await s.waitFor('BUSY 1');
    await sleep(200);
    s.type('y');
    await sleep(100);
    s.type('\r');
    await s.atPrompt(1);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  });

  it('a pasted two-line deny note is one note and decides nothing after it', async () => {
    const s = start({ COUNT: '3', BUSY_MS: '300' });
    await s.atPrompt(1);
    expect(s.screen).toContain('\u001b[?2004h'); // the program asked for bracketed paste
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\u001b[200~use a constant\nyes, and edit the test\u001b[201~');
    await sleep(100);
    s.type('\r');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent', 2);
    s.type('\r');
    await s.atPrompt(3);
    s.type('y');
    expect(await s.decisions()).toEqual([
      { approved: false, note: 'use a constant yes, and edit the test' },
      { approved: false },
      { approved: true },
    ]);
  });

  it('an unbracketed two-line paste into the note: the first line is the note, the rest decides nothing', async () => {
    const s = start({ COUNT: '2', BUSY_MS: '300' });
    await s.atPrompt(1);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('use a constant\ryes, and edit the test\r');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent', 2);
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false, note: 'use a constant' }, { approved: false }]);
  });
});
