import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalReviewer } from '../../../src/terminal/review/terminal-reviewer.js';
import { stagedProject } from '../../staging/fixture.js';
import { ok } from '../../tools/fixture.js';

/** Injected terminal streams; keys typed once the screen has been drawn (arming delay 0). */
function tty() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
  let text = '';
  const output = Object.assign(
    new Writable({
      write(chunk, _e, done) {
        text += chunk.toString();
        done();
      },
    }),
    { isTTY: true, columns: 100, rows: 30 },
  );
  return { input, output, text: () => text };
}

describe('terminal review keys (injected terminal)', () => {
  it("shows the agent's summary, rejects all with r, then accepts one file with space; Esc after opening goes back", async () => {
    const { toolset, staging } = stagedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: 'A\n' }));
    ok(await toolset.callTool('write_file', { path: '/b.txt', content: 'B\n' }));
    const t = tty();
    const set = staging.changeSet();
    const decided = terminalReviewer({ input: t.input, output: t.output, armDelayMs: 0, color: false })(set, {
      summary: 'capitalised both',
    });
    await new Promise((r) => setImmediate(r));
    expect(t.text()).toContain('Agent: capitalised both');
    for (const k of ['r', 'j', ' ', '\r', '\u001b', 'y']) {
      t.input.write(k);
      await new Promise((r) => setTimeout(r, 5));
    }
    const decisions = await decided;
    expect(decisions.files).toEqual({ '/a.txt': { action: 'reject' }, '/b.txt': { action: 'accept' } });
    expect(decisions.changeSetId).toBe(set.id);
  });

  it('Ctrl-C and q close the review: everything rejected, with the reason for the model', async () => {
    const { toolset, staging } = stagedProject({ 'a.txt': 'a\n' });
    ok(await toolset.callTool('write_file', { path: '/a.txt', content: 'A\n' }));
    for (const key of ['\u0003', 'q']) {
      const t = tty();
      const decided = terminalReviewer({ input: t.input, output: t.output, armDelayMs: 0 })(
        staging.changeSet(),
      );
      await new Promise((r) => setImmediate(r));
      t.input.write(key);
      const decisions = await decided;
      expect(decisions.files['/a.txt']).toEqual({ action: 'reject' });
      expect(decisions.note).toMatch(/closed the review without applying/);
    }
  });
});
