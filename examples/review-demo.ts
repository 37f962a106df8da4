// `npm run demo -- --review`: a scripted "agent" edits three files of a temp copy of
// examples/sample-project in staging mode (nothing touches the disk), then you review
// the whole change set in the terminal: toggle changes, edit, add notes, apply with `y`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import kleur from 'kleur';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { terminalReviewer } from '../src/terminal/review/terminal-reviewer.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';

const source = path.join(import.meta.dirname, 'sample-project');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-approval-review-'));
fs.cpSync(source, work, { recursive: true });

const sandbox = new Sandbox({
  mounts: [
    { hostPath: path.join(work, 'src'), mountPoint: '/src', mode: 'rw' },
    { hostPath: path.join(work, 'docs'), mountPoint: '/docs', mode: 'rw', suffixes: ['.md'] },
  ],
});
const tools = new FileSystemToolset(sandbox, { staging: true });
const say = (text: string) => console.log(`${kleur.magenta('agent ›')} ${text}`);
const run = async (name: string, args: Record<string, unknown>) => {
  const outcome = await tools.callTool(name, args);
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  console.log(kleur.green('  ✓ staged'));
};

say('The summary should read "2 of 3 done".');
await run('edit_file', {
  path: '/src/todo-list.ts',
  old_string: "return [`${done}/${this.items.length} done`, ...lines].join('\\n');",
  new_string: "return [`${done} of ${this.items.length} done`, ...lines].join('\\n');",
});
say('Finished items get a strikethrough, and the format gets a doc line.');
await run('edit_file', {
  path: '/src/format.ts',
  old_string: '/** One line per item: "[x] 1. write docs". */',
  new_string: '/** One line per item: "[x] 1. ~~write docs~~" (finished items struck through). */',
});
await run('edit_file', {
  path: '/src/format.ts',
  old_string: '  return `${box} ${item.id}. ${item.title}`;',
  new_string:
    '  const title = item.done ? `~~${item.title}~~` : item.title;\n  return `${box} ${item.id}. ${title}`;',
});
say('Noting it in the changelog.');
await run('edit_file', {
  path: '/docs/CHANGELOG.md',
  old_string: '# Changelog\n',
  new_string:
    '# Changelog\n\n## Unreleased\n- Summary reads "N of M done"; finished items are struck through.\n',
});
const check = await tools.callTool('read_file', { path: '/src/format.ts' });
say(`Reading my own change back: ${check.ok ? 'the staged format.ts has the strikethrough' : 'failed'}.`);

const result = await tools.staging!.review(terminalReviewer());
console.log(`\n${kleur.bold('Back to the agent:')}\n${result.summary}`);
console.log(kleur.dim(`\n(files in ${work})`));
