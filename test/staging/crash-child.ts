// Child process of the crash test: stages new contents for every file of a
// directory, then applies them and SIGKILLs itself at a given step of the apply
// (or lets the parent kill it at a random moment).
import fs from 'node:fs';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { decideAll } from '../../src/staging/decisions.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';

const [dir, killAt] = process.argv.slice(2) as [string, string];
const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw' });
const toolset = new FileSystemToolset(sandbox, { staging: true });
const names = fs
  .readdirSync(dir)
  .filter((n) => n.endsWith('.txt'))
  .sort();
for (const name of names) {
  const text = fs.readFileSync(path.join(dir, name), 'utf8');
  await toolset.callTool('write_file', { path: `/${name}`, content: text.replaceAll('old', 'new') });
}
await toolset.callTool('write_file', { path: '/sub/created.txt', content: 'new created\n' });
const staging = toolset.staging!;
const set = staging.changeSet();
process.stdout.write('ready\n');
const result = await staging.apply(decideAll(set, 'accept'), {
  hook: (step) => {
    if (step === killAt) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write(result.ok ? 'applied\n' : `failed ${result.summary}\n`);
