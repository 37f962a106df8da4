import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type IPty, spawn } from '@lydell/node-pty';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';

const FIXTURE = path.join(import.meta.dirname, 'rt-fixture.ts');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The red-team fixture in a real pseudo-terminal. */
export class RtPty {
  screen = '';
  private readonly pty: IPty;
  readonly exited: Promise<{ exitCode: number; signal?: number | undefined }>;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-pty-'));
  private readonly resultFile = path.join(this.dir, 'decisions.jsonl');

  constructor(requests: ApprovalRequest[], env: Record<string, string> = {}, cols = 80, rows = 24) {
    const reqFile = path.join(this.dir, 'requests.json');
    fs.writeFileSync(reqFile, JSON.stringify(requests));
    this.pty = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      name: env.TERM ?? 'xterm-256color',
      cols,
      rows,
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, ...env, REQUESTS_FILE: reqFile, RESULT_FILE: this.resultFile } as Record<
        string,
        string
      >,
    });
    this.pty.onData((d) => {
      this.screen += d;
    });
    this.exited = new Promise((resolve) => this.pty.onExit(resolve));
  }

  count(text: string): number {
    return this.screen.split(text).length - 1;
  }

  async waitFor(text: string, times = 1, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.count(text) < times) {
      if (Date.now() > until)
        throw new Error(
          `timed out waiting for ${JSON.stringify(text)} ×${times}; screen:\n${this.screen.slice(-3000)}`,
        );
      await sleep(20);
    }
  }

  /** Waits for the n-th prompt and stays past the arming delay. */
  async atPrompt(n: number): Promise<void> {
    await this.waitFor('quit the run', n);
    await sleep(900);
  }

  type(text: string): void {
    this.pty.write(text);
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
  }

  async decisions(timeoutMs = 20_000): Promise<unknown[]> {
    const code = await Promise.race([this.exited, sleep(timeoutMs).then(() => 'timeout' as const)]);
    if (code === 'timeout') {
      this.pty.kill();
      throw new Error(`the program did not finish; screen:\n${this.screen.slice(-3000)}`);
    }
    if (!fs.existsSync(this.resultFile)) return [];
    return fs
      .readFileSync(this.resultFile, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l)
      .map((l) => JSON.parse(l));
  }

  kill(): void {
    try {
      this.pty.kill();
    } catch {}
  }
}
