import { afterEach, describe, expect, it } from 'vitest';
import { PtySession } from './pty/pty-session.js';

// Keys decide by when they were typed, not when a busy process read them (issue 22): through a
// real pseudo-terminal, a `y` typed before the prompt was armed must decide nothing, however
// long the process is blocked around the arming. Several trials each, at different moments.
let session: PtySession | undefined;
afterEach(() => session?.kill());
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('type-ahead through a real pty', () => {
  it.each([
    0, 50, 150, 300,
  ])('a synchronous onPrompt blocking 600 ms: `y` typed %i ms into it decides nothing', async (after) => {
    session = new PtySession({ COUNT: '1', BUSY_MS: '100', HOOK_MS: '600' });
    const s = session;
    await s.waitFor('HOOKED');
    await sleep(after);
    s.type('y');
    await s.atPrompt(1);
    // The prompt was drawn before the hook ran: read it past the hook and the arming delay.
    await sleep(1000);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }]);
  });

  it.each([
    0, 20, 60, 120, 200, 280,
  ])('a parallel call building a 200,000-line payload %i ms after the prompt: `y` typed meanwhile decides nothing', async (at) => {
    session = new PtySession({ PARALLEL_AT_MS: String(at) });
    const s = session;
    await s.waitFor('BUILDING');
    s.type('y');
    await s.waitFor('BUILT');
    await s.atPrompt(1);
    s.type('n');
    await s.waitFor('Tell the agent');
    s.type('\r');
    await s.atPrompt(2);
    s.type('n');
    await s.waitFor('Tell the agent', 2);
    s.type('\r');
    expect(await s.decisions()).toEqual([{ approved: false }, { approved: false }]);
  }, 30_000);
});
