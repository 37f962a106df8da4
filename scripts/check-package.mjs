#!/usr/bin/env node
// Checks the package the way users get it: `npm pack`, install the tarball into fresh projects,
// import every entry point with plain node, type-check a consumer under NodeNext and Bundler,
// install without the optional peers, then publint and attw on the tarball.
// Plain .mjs on purpose: this must run with nothing but node and npm.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const installedVersion = (name) =>
  JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'sandbox-approval-package-'));
const npmQuiet = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

function step(title) {
  console.log(`\n== ${title}`);
}

function run(cmd, args, cwd, options = {}) {
  return execFileSync(cmd, args, { cwd, stdio: options.capture ? 'pipe' : 'inherit', encoding: 'utf8' });
}

/** Every subpath in `exports` except package.json: later entry points are checked without editing this file. */
const entryPoints = Object.keys(manifest.exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`));
/** Entry points that need an optional peer, and the peer each needs. */
const peerOf = {
  [`${manifest.name}/ai-sdk`]: 'ai',
  [`${manifest.name}/openai-agents`]: '@openai/agents',
  [`${manifest.name}/react`]: 'react',
};

function consumerProject(name, deps) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2));
  run('npm', ['install', ...npmQuiet, ...deps], dir);
  return dir;
}

try {
  step('npm pack (prepack builds dist/)');
  const packed = JSON.parse(
    run('npm', ['pack', '--json', '--pack-destination', work], root, { capture: true }),
  );
  const tarball = join(work, packed[0].filename);
  const files = packed[0].files.map((f) => f.path);
  const forbidden = files.filter((f) => /^(test|bench|examples|scripts|\.ci)\//.test(f));
  if (forbidden.length > 0) throw new Error(`tarball ships files it must not: ${forbidden.join(', ')}`);
  for (const entry of Object.values(manifest.exports)) {
    if (typeof entry === 'string') continue;
    for (const target of [entry.types, entry.import, entry.default]) {
      if (!files.includes(target.replace(/^\.\//, ''))) throw new Error(`tarball lacks ${target}`);
    }
  }
  console.log(`${files.length} files, entry points: ${entryPoints.join(', ')}`);

  step('install the tarball with both frameworks');
  const full = consumerProject('full', [
    tarball,
    `ai@${installedVersion('ai')}`,
    `@openai/agents@${installedVersion('@openai/agents')}`,
    `react@${installedVersion('react')}`,
    `@types/react@${installedVersion('@types/react')}`,
    `@types/node@${installedVersion('@types/node')}`,
    // ai's provider types import 'json-schema' without depending on its types; any strict consumer needs them.
    '@types/json-schema',
  ]);
  writeFileSync(join(full, 'smoke.mjs'), smokeScript(entryPoints));
  run('node', ['smoke.mjs'], full);
  if (manifest.bin) {
    writeFileSync(join(full, 'bin.mjs'), binScript());
    run('node', ['bin.mjs'], full);
  }

  step('type-check a consumer (strict) under NodeNext and Bundler');
  writeFileSync(join(full, 'consumer.ts'), consumerSource());
  for (const [module, moduleResolution] of [
    ['NodeNext', 'NodeNext'],
    ['ESNext', 'Bundler'],
  ]) {
    const config = `tsconfig.${moduleResolution.toLowerCase()}.json`;
    writeFileSync(
      join(full, config),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module,
          moduleResolution,
          types: ['node'],
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    run(bin('tsc'), ['-p', config], full);
    console.log(`tsc ${moduleResolution}: ok`);
  }

  step('install without the optional peers');
  const bare = consumerProject('bare', [tarball]);
  writeFileSync(join(bare, 'bare.mjs'), bareScript(entryPoints));
  run('node', ['bare.mjs'], bare);

  step('publint');
  run(bin('publint'), ['run', tarball, '--strict'], root);

  step('attw (esm-only profile)');
  run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--no-color'], root);

  console.log('\npackage check: ok');
} catch (error) {
  console.error(`\npackage check FAILED: ${error.message.split('\n')[0]}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

/** Real calls through the installed package: a sandbox, a policy-approved edit, both adapters' tool sets. */
function smokeScript(entries) {
  return `
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';

for (const entry of ${JSON.stringify(entries)}) {
  const mod = await import(entry);
  assert.ok(Object.keys(mod).length > 0, entry + ' exports nothing');
  console.log('import ' + entry + ': ' + Object.keys(mod).length + ' exports');
}

const { Sandbox, FileSystemToolset, ApprovalToolset, approveAll } = await import('sandbox-approval');
const dir = mkdtempSync(join(tmpdir(), 'consumer-'));
writeFileSync(join(dir, 'app.ts'), 'const retries = 3;\\n');
const sandbox = new Sandbox({ mounts: [{ hostPath: dir, mountPoint: '/src', mode: 'rw' }] });
const tools = new FileSystemToolset(sandbox);
const gated = new ApprovalToolset(tools, { approve: approveAll() });
const edit = await gated.callTool('edit_file', {
  path: '/src/app.ts', old_string: 'const retries = 3;', new_string: 'const retries = 5;',
});
assert.equal(edit.ok, true, JSON.stringify(edit));
assert.equal(readFileSync(join(dir, 'app.ts'), 'utf8'), 'const retries = 5;\\n');
const escape = await gated.callTool('read_file', { path: '/src/../../etc/passwd' });
assert.equal(escape.ok, false);
console.log('edit through ApprovalToolset: ok; escape refused: ' + escape.error.code);

const { aiSdkTools } = await import('sandbox-approval/ai-sdk');
const aiTools = aiSdkTools(tools, { approval: { mode: 'blocking', approve: approveAll() } });
assert.ok(aiTools.edit_file && typeof aiTools.edit_file.execute === 'function');
const { openAIAgentsTools } = await import('sandbox-approval/openai-agents');
const agentTools = openAIAgentsTools(tools, { approval: { mode: 'blocking', approve: approveAll() } });
assert.ok(Array.isArray(agentTools) && agentTools.some((t) => t.name === 'edit_file'));
console.log('AI SDK tools: ' + Object.keys(aiTools).length + ', OpenAI Agents tools: ' + agentTools.length);
`;
}

/** The installed `sandbox-approval mcp` command, spoken to over stdio by the MCP SDK's client. */
function binScript() {
  return `
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const dir = mkdtempSync(join(tmpdir(), 'consumer-mcp-'));
writeFileSync(join(dir, 'notes.md'), 'hello from the packed bin\\n');
const transport = new StdioClientTransport({
  command: join('node_modules', '.bin', 'sandbox-approval'),
  args: ['mcp', '--mount', dir + ':/notes:rw', '--approve', 'deny'],
  stderr: 'pipe',
});
const client = new Client({ name: 'package-check', version: '1' });
await client.connect(transport);
const { tools } = await client.listTools();
const read = await client.callTool({ name: 'read_file', arguments: { path: '/notes/notes.md' } });
assert.match(read.content[0].text, /hello from the packed bin/);
const write = await client.callTool({ name: 'write_file', arguments: { path: '/notes/x.md', content: 'x' } });
assert.equal(write.isError, true);
await client.close();
console.log('bin sandbox-approval mcp: ' + tools.length + ' tools; read ok; write refused in deny mode');
`;
}

/** The consumer a TypeScript user writes: typed results, payload narrowing, adapter tool sets. */
function consumerSource() {
  return `
import { ApprovalToolset, FileSystemToolset, Sandbox, type ApprovalCallback } from 'sandbox-approval';
import { terminalApprover } from 'sandbox-approval/terminal';
import { aiSdkTools } from 'sandbox-approval/ai-sdk';
import { openAIAgentsTools } from 'sandbox-approval/openai-agents';
import { ApprovalCard, type ApprovalCardProps } from 'sandbox-approval/react';

const sandbox = new Sandbox({ mounts: [{ hostPath: '.', mountPoint: '/work', mode: 'rw' }] });
const tools = new FileSystemToolset(sandbox);
const approve: ApprovalCallback = (request) => ({ approved: request.payload.type !== 'delete' });
const gated = new ApprovalToolset(tools, { approve });
export async function bump(): Promise<string> {
  const result = await gated.callTool('edit_file', { path: '/work/a.ts', old_string: 'a', new_string: 'b' });
  return result.ok ? 'edited' : result.error.code;
}
export const ai = aiSdkTools(tools, { approval: { mode: 'blocking', approve: terminalApprover() } });
export const agents = openAIAgentsTools(tools, { approval: { mode: 'native' } });
export const card: (props: ApprovalCardProps) => unknown = ApprovalCard;
`;
}

/** Without the peers: the core works, and an adapter import names the package it needs. */
function bareScript(entries) {
  return `
import assert from 'node:assert/strict';
const peerOf = ${JSON.stringify(peerOf)};
for (const entry of ${JSON.stringify(entries)}) {
  const peer = peerOf[entry];
  if (!peer) {
    await import(entry);
    console.log('import ' + entry + ': ok');
    continue;
  }
  await assert.rejects(import(entry), (error) => {
    assert.match(String(error.message), new RegExp("'" + peer.replace('/', '\\\\/') + "'"));
    console.log('import ' + entry + ' without ' + peer + ': ' + error.message.split('\\n')[0]);
    return true;
  });
}
const { Sandbox } = await import('sandbox-approval');
await import('sandbox-approval/terminal');
new Sandbox({ mounts: [{ hostPath: '.', mountPoint: '/work', mode: 'ro' }] });
console.log('core without peers: ok');
`;
}
