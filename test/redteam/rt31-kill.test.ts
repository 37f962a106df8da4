// rt31: "a reader never sees a torn or empty file", also when the writing process is SIGKILLed mid-write: the
// file on disk is always one whole version, and a later write removes the dead writer's temp file.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { nodeScript } from '../helpers/node-script.js';
import { cleanupAll, mkdir } from './rt31-harness.js';

afterEach(cleanupAll);
const worker = path.join(__dirname, 'rt31-kill-worker.ts');

function whole(s: string): string | null {
  const m = /^v(\d+) line of text {2}\r\n/.exec(s);
  if (!m) return 'no first line';
  const k = m[1];
  const want = `${`v${k} line of text  \r\n`.repeat(200_000)}end ${k}  \r\n`;
  // write_file wrote version k; edit_file then changed only its last line to "end k+1"
  const alt = `${`v${k} line of text  \r\n`.repeat(200_000)}end ${Number(k) + 1}  \r\n`;
  return s === want || s === alt || s === alt.replace(/ {2}\r\n$/, '\r\n')
    ? null
    : `torn (len ${s.length}): ${JSON.stringify(s.slice(-30))}`;
}

describe('rt31 SIGKILL mid-write', () => {
  it('8 kills at random moments: always one whole version on disk; temp files cleaned by the next write', async () => {
    const root = mkdir('rt31-kill-');
    const f = path.join(root, 'f.txt');
    fs.writeFileSync(f, `${'v0 line of text  \r\n'.repeat(200_000)}end 0  \r\n`);
    const bad: string[] = [];
    for (let round = 0; round < 8; round++) {
      const child = spawn(process.execPath, [nodeScript(worker), root], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let seen = 0;
      await new Promise<void>((resolve) => {
        child.stdout!.on('data', (d) => {
          seen += String(d).split('W').length - 1;
          if (seen >= 2 + (round % 3)) resolve();
        });
        child.on('close', () => resolve());
      });
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      child.kill('SIGKILL');
      await new Promise((r) => child.on('close', r));
      const w = whole(fs.readFileSync(f, 'utf8'));
      if (w) bad.push(`round ${round}: ${w}`);
    }
    expect(bad).toEqual([]);
    // Docs: temp files of a killed writer "are removed by later writes in that directory (once their process is
    // gone, or after 15 minutes)". The code waits a 30 s grace (DEAD_WRITER_GRACE_MS, undocumented) and sweeps a
    // directory at most once a minute per process; so wait out the grace, then the first write from here.
    await new Promise((r) => setTimeout(r, 31_000));
    const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
    const out: any = await ts.callTool('write_file', { path: '/g.txt', content: 'x\n' });
    expect(out.ok).toBe(true);
    expect(fs.readdirSync(root).sort()).toEqual(['f.txt', 'g.txt']);
  }, 180_000);
});
