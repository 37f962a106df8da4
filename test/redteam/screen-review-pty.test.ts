import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type IPty, spawn } from '@lydell/node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdir } from './screen-helpers.js';

const FIXTURE = path.join(import.meta.dirname, 'rt-review-fixture.ts');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let pty: IPty | undefined;
afterEach(() => {
  try {
    pty?.kill();
  } catch {}
});

function run(dir: string, stage: unknown, env: Record<string, string> = {}) {
  const resultFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rt-rev-')), 'r.json');
  let screen = '';
  pty = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      ...env,
      DIR: dir,
      STAGE_JSON: JSON.stringify(stage),
      RESULT_FILE: resultFile,
    } as Record<string, string>,
  });
  pty.onData((d) => {
    screen += d;
  });
  const exited = new Promise((r) => pty!.onExit(r));
  return {
    screen: () => screen,
    type: (t: string) => pty!.write(t),
    waitFor: async (t: string, ms = 20_000) => {
      const until = Date.now() + ms;
      while (!screen.includes(t)) {
        if (Date.now() > until) throw new Error(`timeout ${t}: ${screen.slice(-2000)}`);
        await sleep(20);
      }
    },
    result: async () => {
      await Promise.race([exited, sleep(20_000)]);
      return JSON.parse(fs.readFileSync(resultFile, 'utf8')) as {
        summary: string;
        files: Record<string, string | null>;
      };
    },
  };
}

describe('review screen through a real pty', () => {
  it('"y" typed while the process is blocked before the screen is drawn applies nothing', async () => {
    const dir = mkdir({ 'a.txt': 'old\n' });
    const r = run(dir, [{ path: '/a.txt', content: 'new\n' }], { BLOCK_MS: '800' });
    await r.waitFor('STAGED');
    r.type('y');
    await sleep(100);
    r.type('ay');
    await r.waitFor('a.txt');
    await sleep(1000);
    r.type('q');
    const res = await r.result();
    expect(res.files['/a.txt']).toBe('old\n');
  }, 30_000);

  it('a bracketed paste "ay" on the review list applies nothing', async () => {
    const dir = mkdir({ 'a.txt': 'old\n' });
    const r = run(dir, [{ path: '/a.txt', content: 'new\n' }]);
    await r.waitFor('a.txt');
    await sleep(1000);
    r.type('\u001b[200~ay\u001b[201~');
    await sleep(800);
    r.type('q');
    const res = await r.result();
    expect(res.files['/a.txt']).toBe('old\n');
  }, 30_000);

  it('a file whose name looks like another (Cyrillic а) is marked on the review list', async () => {
    const dir = mkdir({ 'pаypal.ts': 'x\n' });
    const r = run(dir, [{ path: '/pаypal.ts', content: 'y\n' }], { NO_COLOR: '1' });
    await r.waitFor('ypal');
    await sleep(800);
    const shown = r.screen();
    r.type('q');
    await r.result();
    expect(shown).toMatch(/Cyrillic|look-alike|mixed/);
  }, 30_000);

  it('the change at column 10,000 of a last line without a final newline is on the open-file screen', async () => {
    const a = `${'x'.repeat(9999)}a${'y'.repeat(100)}`;
    const b = `${'x'.repeat(9999)}b${'y'.repeat(100)}`;
    const dir = mkdir({ 'f.txt': a });
    const r = run(dir, [{ path: '/f.txt', content: b }], { NO_COLOR: '1' });
    await r.waitFor('f.txt');
    await sleep(800);
    const before = r.screen().length;
    r.type('\r');
    await sleep(800);
    const shown = r.screen().slice(before);
    r.type('q');
    await sleep(500);
    r.type('q');
    await r.result();
    expect(shown).toContain('{+b+}');
  }, 30_000);
});
