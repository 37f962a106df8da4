import fs from 'node:fs';
import path from 'node:path';
import { spawn } from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLEAR = '\u001b[H\u001b[2J';

/** The last full frame the review drew, as plain text (colour and cursor codes removed). */
function lastFrame(output: string): string {
  const frame = output.slice(output.lastIndexOf(CLEAR) + CLEAR.length);
  return frame.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

describe('terminal review screen (real pty, 100×30)', () => {
  it('lists the files, opens a diff, rejects one change, applies the rest and tells the agent', async () => {
    const pty = spawn(process.execPath, ['--import', 'tsx', 'examples/demo.ts', '--review'], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0', EDITOR: 'true' } as Record<string, string>,
    });
    let out = '';
    pty.onData((d) => {
      out += d;
    });
    const exited = new Promise<number>((resolve) => pty.onExit((e) => resolve(e.exitCode)));
    const waitFor = async (text: string, from = 0) => {
      const until = Date.now() + 30_000;
      while (!out.slice(from).includes(text)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${text}:\n${lastFrame(out)}`);
        await sleep(25);
      }
    };
    try {
      await waitFor('Review 3 changed files');
      const list = lastFrame(out);
      expect(list).toMatch(/› \[✓\] modified +\/src\/todo-list\.ts +\+1 −1/);
      expect(list).toMatch(/\[✓\] modified +\/src\/format\.ts +\+3 −2/);
      expect(list).toMatch(/\[✓\] modified +\/docs\/CHANGELOG\.md +\+3 −0/);
      await sleep(800); // keys typed before the screen was armed are dropped, as at the prompt
      let mark = out.length;
      pty.write('j\r');
      await waitFor('change 1/2', mark);
      mark = out.length;
      pty.write('n');
      await waitFor('▶ [✓] change 2/2', mark);
      expect(lastFrame(out)).toContain('+  const title = item.done');
      mark = out.length;
      pty.write(' ');
      await waitFor('▶ [✗] change 2/2', mark);
      await sleep(100);
      const fileView = lastFrame(out);
      expect(fileView).toMatch(/^\/src\/format\.ts {2}modified {2}\+3 −2 {2}change 2\/2/);
      mark = out.length;
      pty.write('\u001b');
      await waitFor('1/2 changes', mark);
      await sleep(100);
      const screen = lastFrame(out);
      expect(screen).toMatch(/› \[~\] modified +\/src\/format\.ts +\+3 −2 +1\/2 changes/);
      expect(screen.split('\n')).toHaveLength(30);
      expect(screen).toContain('y apply  q cancel');
      // The closing note of the feature keeps these two screens.
      if (process.env.REVIEW_SCREEN_OUT)
        fs.writeFileSync(
          process.env.REVIEW_SCREEN_OUT,
          `${screen}\n\n--- format.ts opened ---\n${fileView}\n`,
        );
      pty.write('y');
      await waitFor('Back to the agent');
      expect(await Promise.race([exited, sleep(20_000).then(() => -1)])).toBe(0);
      const plain = lastFrame(out);
      expect(plain).toContain(
        '/src/format.ts (modified): partly applied: 1 change(s) accepted, 1 rejected at line 6',
      );
      expect(plain).toContain('/src/todo-list.ts (modified): applied as staged.');
      const work = /\(files in (.+)\)/.exec(plain)![1]!;
      const format = fs.readFileSync(path.join(work, 'src/format.ts'), 'utf8');
      expect(format).toContain('(finished items struck through)');
      expect(format).not.toContain('~~${item.title}~~');
      expect(fs.readFileSync(path.join(work, 'src/todo-list.ts'), 'utf8')).toContain(
        ' of ${this.items.length} done',
      );
      fs.rmSync(work, { recursive: true, force: true });
    } finally {
      pty.kill();
    }
  }, 60_000);
});
