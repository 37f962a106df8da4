// Runs the directory ↔ symlink race in a plain Node process (vitest's worker stalls the
// forked swapper) and prints a JSON report for crash-and-race.test.ts to assert on.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';

const iterations = Number(process.argv[2] ?? 2_000);
const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sbx-race-')));
const allowed = path.join(root, 'allowed');
const outside = path.join(root, 'outside');
fs.mkdirSync(path.join(allowed, 'dir'), { recursive: true });
fs.mkdirSync(outside);
fs.writeFileSync(path.join(allowed, 'dir/f.txt'), 'inside\n');
fs.writeFileSync(path.join(outside, 'f.txt'), 'OUTSIDE CANARY\n');
const countFile = path.join(root, 'swaps.txt');
const toolset = new FileSystemToolset(Sandbox.fromDirectory(allowed, { mode: 'rw' }));
const swapper = fork(path.join(import.meta.dirname, 'swap-loop-child.mjs'), [allowed, outside, countFile], {
  stdio: 'ignore',
  execArgv: [],
});
await new Promise<void>((resolve) => swapper.once('message', () => resolve()));
let refused = 0;
let leaked = 0;
let done = 0;
for (; done < iterations; done++) {
  const read = await toolset.callTool('read_file', { path: '/dir/f.txt' });
  if (read.ok && String((read.data as { content: string }).content).includes('OUTSIDE')) leaked++;
  if (!read.ok) refused++;
  const write = await toolset.callTool('write_file', { path: '/dir/f.txt', content: `inside ${done}\n` });
  if (!write.ok) refused++;
  const created = await toolset.callTool('write_file', { path: `/dir/new-${done % 5}.txt`, content: 'x' });
  if (!created.ok) refused++;
}
swapper.kill('SIGKILL');
await new Promise((r) => swapper.once('exit', r));
const report = {
  iterations: done,
  swaps: Number(fs.existsSync(countFile) ? fs.readFileSync(countFile, 'utf8') : 0),
  refused,
  leaked,
  outsideEntries: fs.readdirSync(outside),
  canary: fs.readFileSync(path.join(outside, 'f.txt'), 'utf8'),
};
fs.rmSync(root, { recursive: true, force: true });
console.log(JSON.stringify(report));
