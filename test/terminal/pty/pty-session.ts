import fs from 'node:fs';
import path from 'node:path';
import { type IPty, spawn } from '@lydell/node-pty';
import { tempDir } from '../../helpers/temp-project.js';

const FIXTURE = path.join(import.meta.dirname, 'approval-fixture.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The approval fixture in a real pseudo-terminal (80×24): the test reads what
 * the program draws and types into it as a person at a terminal would.
 */
export class PtySession {
  screen = '';
  private readonly pty: IPty;
  private readonly exited: Promise<number>;
  private readonly resultFile = path.join(tempDir(), 'decisions.jsonl');

  constructor(env: Record<string, string>) {
    this.pty = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      name: 'xterm-256color',
      cols: 80,
      rows: 24,
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, ...env, RESULT_FILE: this.resultFile } as Record<string, string>,
    });
    this.pty.onData((d) => {
      this.screen += d;
    });
    this.exited = new Promise((resolve) => this.pty.onExit(({ exitCode }) => resolve(exitCode)));
  }

  /** Waits until `text` has been drawn `times` times in all. */
  async waitFor(text: string, times = 1, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.screen.split(text).length - 1 < times) {
      if (Date.now() > until)
        throw new Error(`timed out waiting for ${JSON.stringify(text)} ×${times}; screen:\n${this.screen}`);
      await sleep(20);
    }
  }

  /** Waits for the `n`-th prompt and lets it stay on screen past the arming delay, as a person reading it. */
  async atPrompt(n: number): Promise<void> {
    await this.waitFor('quit the run', n);
    await sleep(900);
  }

  type(text: string): void {
    this.pty.write(text);
  }

  /** The decisions the program made, once it has finished. */
  async decisions(): Promise<unknown[]> {
    const code = await Promise.race([this.exited, sleep(20_000).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      this.pty.kill();
      throw new Error(`the program did not finish; screen:\n${this.screen}`);
    }
    return fs
      .readFileSync(this.resultFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  }

  kill(): void {
    this.pty.kill();
  }
}
