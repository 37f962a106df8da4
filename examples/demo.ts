// `npm run demo`: an offline, scripted "agent" edits a temp copy of examples/sample-project
// through the sandboxed tools, and you approve each change in the terminal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import kleur from 'kleur';
import { ApprovalMemory } from '../src/approval/approval-memory.js';
import { ApprovalToolset } from '../src/approval/approval-toolset.js';
import { combineToolsets } from '../src/approval/combine-toolsets.js';
import { ApprovalAborted } from '../src/approval/errors.js';
import { gatedToolset } from '../src/approval/gated-toolset.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { terminalApprover } from '../src/terminal/terminal-approver.js';
import { FileSystemToolset } from '../src/tools/filesystem-toolset.js';
import { runCommandTool } from './run-command-tool.js';

// `npm run demo -- --review`: stage the agent's edits and review them all at once instead.
if (process.argv.includes('--review')) {
  await import('./review-demo.js');
  process.exit(0);
}

const source = path.join(import.meta.dirname, 'sample-project');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-approval-demo-'));
fs.cpSync(source, work, { recursive: true });
const before = new Map<string, string>();
const snapshot = (dir: string, rel = ''): void => {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.join(rel, e.name);
    if (e.isDirectory()) snapshot(dir, r);
    else before.set(`/${r}`, fs.readFileSync(path.join(dir, r), 'utf8'));
  }
};
snapshot(work);

const sandbox = new Sandbox({
  mounts: [
    { hostPath: path.join(work, 'src'), mountPoint: '/src', mode: 'rw' },
    { hostPath: path.join(work, 'docs'), mountPoint: '/docs', mode: 'rw', suffixes: ['.md'] },
  ],
});
const memory = new ApprovalMemory();
const tools = new FileSystemToolset(sandbox);
// Your own run_command sits next to the file tools: same prompt, memory and audit (docs/approval.md).
const everything = combineToolsets(tools, gatedToolset([runCommandTool(work)]));
const agent = new ApprovalToolset(everything, { approve: terminalApprover({ memory }), memory });

const say = (text: string) => console.log(`\n${kleur.magenta('agent ›')} ${text}`);
const show = (outcome: Awaited<ReturnType<typeof agent.callTool>>) => {
  if (outcome.ok) console.log(kleur.green('  ✓ done'));
  else console.log(kleur.yellow(`  ✗ ${outcome.error.code}: ${outcome.error.message.split('\n')[0]}`));
  return outcome;
};

try {
  say('Let me look around the project.');
  const listing = show(await agent.callTool('list_files', { path: '/' }));
  if (listing.ok) console.log(kleur.dim(`  ${(listing.data as { entries: string[] }).entries.join('  ')}`));

  say('Reading the todo list module.');
  const read = show(await agent.callTool('read_file', { path: '/src/todo-list.ts' }));
  const sha = read.ok ? (read.data as { sha256: string }).sha256 : undefined;

  say('The summary line should read "2 of 3 done". Editing it.');
  show(
    await agent.callTool('edit_file', {
      path: '/src/todo-list.ts',
      old_string: "return [`${done}/${this.items.length} done`, ...lines].join('\\n');",
      new_string: "return [`${done} of ${this.items.length} done`, ...lines].join('\\n');",
      ...(sha ? { base_sha256: sha } : {}),
    }),
  );

  say('Adding a strikethrough for finished items, as a patch (my line numbers are a little off).');
  const format = await tools.callTool('read_file', { path: '/src/format.ts' });
  show(
    await agent.callTool('patch_file', {
      path: '/src/format.ts',
      base_sha256: format.ok ? (format.data as { sha256: string }).sha256 : '',
      unified_diff: [
        '--- a/src/format.ts',
        '+++ b/src/format.ts',
        '@@ -9,4 +9,5 @@',
        ' export function formatItem(item: TodoItem): string {',
        "   const box = item.done ? '[x]' : '[ ]';",
        '-  return `${box} ${item.id}. ${item.title}`;',
        '+  const title = item.done ? `~~${item.title}~~` : item.title;',
        '+  return `${box} ${item.id}. ${title}`;',
        ' }',
        '',
      ].join('\n'),
    }),
  );

  say('Creating a small priority helper.');
  show(
    await agent.callTool('write_file', {
      path: '/src/priority.ts',
      content: [
        "export type Priority = 'low' | 'normal' | 'high';",
        '',
        '/** Orders priorities from most to least urgent. */',
        "export const PRIORITY_ORDER: Priority[] = ['high', 'normal', 'low'];",
        '',
      ].join('\n'),
    }),
  );

  say('Noting the change in the changelog.');
  show(
    await agent.callTool('edit_file', {
      path: '/docs/CHANGELOG.md',
      old_string: '# Changelog\n',
      new_string:
        '# Changelog\n\n## Unreleased\n- Summary reads "N of M done"; finished items are struck through.\n',
    }),
  );

  say('Checking which Node runs the tests.');
  const version = show(await agent.callTool('run_command', { command: 'node', args: ['--version'] }));
  if (version.ok) console.log(kleur.dim(`  ${(version.data as { stdout: string }).stdout.trim()}`));

  say("Let me peek at the machine's password file too…");
  show(await agent.callTool('read_file', { path: '/../../etc/passwd' }));
  say('…or drop a file outside the project.');
  show(await agent.callTool('write_file', { path: '/src/../../outside.txt', content: 'hello' }));
} catch (error) {
  if (!(error instanceof ApprovalAborted)) throw error;
  console.log(kleur.yellow('\nYou quit the run.'));
}

console.log(`\n${kleur.bold('What changed')} (in ${work}):`);
for (const change of agent.history())
  console.log(`  ${change.toolName.padEnd(11)} ${change.path}${change.beforeSha256 ? '' : ' (new)'}`);
if (agent.history().length === 0) console.log('  nothing');
for (const mount of ['src', 'docs']) {
  for (const name of fs.readdirSync(path.join(work, mount))) {
    const key = `/${mount}/${name}`;
    const now = fs.readFileSync(path.join(work, mount, name), 'utf8');
    if (before.get(key) !== now) {
      console.log(
        kleur.dim(
          createTwoFilesPatch(`a${key}`, `b${key}`, before.get(key) ?? '', now, '', '', { context: 1 }),
        ),
      );
    }
  }
}
const remembered = memory.list();
if (remembered.length) console.log(`Remembered approvals: ${remembered.map((r) => r.label).join('; ')}`);
