import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { BIN, codeOf, REPO } from './stdio-client.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** A client that declares roots and answers roots/list with `roots()` (which may change). */
async function connect(args: string[], roots: () => string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', BIN, 'mcp', ...args],
    cwd: REPO,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const client = new Client(
    { name: 'roots', version: '1' },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: roots().map((dir) => ({ uri: pathToFileURL(dir).href })),
  }));
  await client.connect(transport);
  clients.push(client);
  const read = async (p: string) =>
    (await client.callTool({ name: 'read_file', arguments: { path: p } })) as CallToolResult;
  return { client, read, stderr: () => stderr };
}

const project = () =>
  tempDir({
    'src/a.ts': 'a\n',
    'src/sub/b.ts': 'b\n',
    'docs/d.md': 'd\n',
    'outside/secret.txt': 's\n',
  });
const mounts = (dir: string) => ['--mount', `${dir}/src:/src:rw`, '--mount', `${dir}/docs:/docs:ro`];

describe('client roots (--roots narrow): they narrow the mounts, never widen them', () => {
  it('a root inside a mount narrows it; mounts outside every root are gone', async () => {
    const dir = project();
    const s = await connect([...mounts(dir), '--roots', 'narrow'], () => [path.join(dir, 'src/sub')]);
    expect((await s.read('/src/sub/b.ts')).isError).toBeFalsy();
    expect((await s.read('/src/a.ts')).isError).toBe(true);
    expect((await s.read('/docs/d.md')).isError).toBe(true);
    expect(s.stderr()).toContain("narrowed to the client's roots");
  });

  it('a root wider than the mounts, or beside them, grants nothing more', async () => {
    const dir = project();
    const s = await connect([...mounts(dir), '--roots', 'narrow'], () => [dir, path.join(dir, 'outside')]);
    expect((await s.read('/src/a.ts')).isError).toBeFalsy();
    expect((await s.read('/docs/d.md')).isError).toBeFalsy();
    const outside = await s.read('/outside/secret.txt');
    expect(codeOf(outside)).toBe('approval_blocked');
    const write = await s.client.callTool({
      name: 'write_file',
      arguments: { path: '/docs/new.md', content: 'x' },
    });
    expect(write.isError).toBe(true);
    expect(fs.existsSync(path.join(dir, 'docs/new.md'))).toBe(false);
  });

  it('follows roots/list_changed, always from the configured mounts', async () => {
    const dir = project();
    let roots = [path.join(dir, 'docs')];
    const s = await connect([...mounts(dir), '--roots', 'narrow'], () => roots);
    expect((await s.read('/src/a.ts')).isError).toBe(true);
    roots = [path.join(dir, 'src')];
    await s.client.sendRootsListChanged();
    await expect.poll(async () => (await s.read('/src/a.ts')).isError ?? false).toBe(false);
    expect((await s.read('/docs/d.md')).isError).toBe(true);
  });

  it('default: roots are ignored', async () => {
    const dir = project();
    const s = await connect(mounts(dir), () => [path.join(dir, 'src/sub')]);
    expect((await s.read('/src/a.ts')).isError).toBeFalsy();
    expect((await s.read('/docs/d.md')).isError).toBeFalsy();
  });
});
