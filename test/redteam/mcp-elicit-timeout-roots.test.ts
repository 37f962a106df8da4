import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { BIN, REPO } from '../mcp/stdio-client.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('red team: elicitation timeout, roots changed during an elicitation', () => {
  it('an elicitation answered "approve" after it timed out never runs the call', async () => {
    const dir = tempDir({ 'src/a.txt': 'orig\n' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        path.join(import.meta.dirname, 'fixtures/timeout-server.ts'),
        path.join(dir, 'src'),
        '500',
      ],
      cwd: REPO,
      stderr: 'pipe',
    });
    const client = new Client({ name: 't', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      await sleep(1500);
      return { action: 'accept', content: { decision: 'approve' } };
    });
    await client.connect(transport);
    clients.push(client);
    const r = (await client.callTool({
      name: 'write_file',
      arguments: { path: '/src/a.txt', content: 'NEW\n' },
    })) as CallToolResult;
    expect(r.isError).toBe(true);
    await sleep(1500);
    expect(fs.readFileSync(path.join(dir, 'src/a.txt'), 'utf8')).toBe('orig\n');
  });

  it('roots narrowed while the person decides: the approved call does not run outside the new roots', async () => {
    const dir = tempDir({ 'src/a.txt': 'orig\n', 'src/sub/b.txt': 'b\n' });
    let roots = [{ uri: pathToFileURL(path.join(dir, 'src')).href }];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', BIN, 'mcp', '--mount', `${dir}/src:/src:rw`, '--roots', 'narrow'],
      cwd: REPO,
      stderr: 'pipe',
    });
    const client = new Client(
      { name: 't', version: '1' },
      { capabilities: { elicitation: {}, roots: { listChanged: true } } },
    );
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    client.setRequestHandler(ElicitRequestSchema, async () => {
      roots = [{ uri: pathToFileURL(path.join(dir, 'src/sub')).href }];
      await client.sendRootsListChanged();
      await sleep(500);
      return { action: 'accept', content: { decision: 'approve' } };
    });
    await client.connect(transport);
    clients.push(client);
    const r = (await client.callTool({
      name: 'write_file',
      arguments: { path: '/src/a.txt', content: 'NEW\n' },
    })) as CallToolResult;
    expect(
      fs.readFileSync(path.join(dir, 'src/a.txt'), 'utf8'),
      `ran after the roots excluded it: ${JSON.stringify(r).slice(0, 200)}`,
    ).toBe('orig\n');
    const after = (await client.callTool({
      name: 'read_file',
      arguments: { path: '/src/a.txt' },
    })) as CallToolResult;
    expect(after.isError).toBe(true);
  });
});

describe('red team: the documented exports of sandbox-approval/mcp', () => {
  it('SizedStdioServerTransport and messageLimitFor are exported from the mcp entry (docs/mcp.md "same module")', async () => {
    const mod = (await import('../../src/mcp/index.js')) as Record<string, unknown>;
    expect(typeof mod.SizedStdioServerTransport).toBe('function');
    expect(typeof mod.messageLimitFor).toBe('function');
  });
});
