import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { BIN, codeOf, REPO } from '../mcp/stdio-client.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(args: string[], answer: () => Promise<{ uri: string }[]> | { uri: string }[]) {
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
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: await answer() }));
  await client.connect(transport);
  clients.push(client);
  const callTool = async (name: string, a: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: a })) as CallToolResult;
  return { client, callTool, stderr: () => stderr };
}

const project = () => tempDir({ 'src/a.ts': 'a\n', 'src/sub/b.ts': 'b\n', 'outside/secret.txt': 's\n' });
const url = (p: string) => pathToFileURL(p).href;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('red team: roots', () => {
  it('odd root URIs never widen beyond the mounts', async () => {
    const dir = project();
    fs.symlinkSync(path.join(dir, 'outside'), path.join(dir, 'src/sub/out'));
    fs.symlinkSync(path.join(dir, 'src'), path.join(dir, 'srclink'));
    const roots = [
      { uri: url(path.join(dir, 'src/sub/out')) }, // root: a link inside the mount leading outside
      { uri: `file://${dir}/src/sub/%2e%2e/%2e%2e/outside` },
      { uri: `file://${dir.replace(/\//g, '%2F')}` },
      { uri: `file://evil.example${dir}/src` },
      { uri: `http://localhost${dir}/src` },
      { uri: 'file:///' },
    ];
    const s = await connect(['--mount', `${dir}/src/sub:/sub:ro`, '--roots', 'narrow'], () => roots);
    const r = await s.callTool('read_file', { path: '/sub/out/secret.txt' });
    expect(r.isError).toBe(true);
    const w = await s.callTool('write_file', { path: '/sub/x.ts', content: 'x' });
    expect(w.isError, 'a ro mount became writable').toBe(true);
    expect(fs.existsSync(path.join(dir, 'src/sub/x.ts'))).toBe(false);
  });

  it('roots narrowed mid-session: a call made right after roots/list_changed is served under the new roots', async () => {
    const dir = project();
    let current = [{ uri: url(path.join(dir, 'src')) }];
    const s = await connect(
      [
        '--mount',
        `${dir}/src:/src:rw`,
        '--roots',
        'narrow',
        '--approve',
        'policy',
        '--policy',
        writePolicy(dir),
      ],
      () => current,
    );
    expect((await s.callTool('read_file', { path: '/src/a.ts' })).isError).toBeFalsy();
    current = [{ uri: url(path.join(dir, 'src/sub')) }];
    await s.client.sendRootsListChanged();
    const r = await s.callTool('write_file', { path: '/src/a.ts', content: 'CHANGED\n' });
    expect(
      fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8'),
      `a write outside the new roots ran (${codeOf(r) ?? 'ok'})`,
    ).toBe('a\n');
  });

  it('two roots changes whose roots/list answers arrive out of order: the latest roots win', async () => {
    const dir = project();
    let n = 0;
    const s = await connect(['--mount', `${dir}/src:/src:rw`, '--roots', 'narrow'], async () => {
      n++;
      if (n === 1) return [{ uri: url(path.join(dir, 'src')) }];
      if (n === 2) {
        // The answer to the first change: wide, but slow.
        await sleep(1500);
        return [{ uri: url(path.join(dir, 'src')) }];
      }
      return [{ uri: url(path.join(dir, 'src/sub')) }]; // the latest roots: narrow, fast
    });
    await s.client.sendRootsListChanged();
    await sleep(100);
    await s.client.sendRootsListChanged();
    await sleep(2500);
    const r = await s.callTool('read_file', { path: '/src/a.ts' });
    expect(r.isError, 'after the latest roots (only /src/sub), /src/a.ts is still readable').toBe(true);
  });

  it('a roots/list that never answers: calls do not hang forever and nothing is served', async () => {
    const dir = project();
    const s = await connect(
      ['--mount', `${dir}/src:/src:rw`, '--roots', 'narrow'],
      () => new Promise(() => {}),
    );
    const r = await Promise.race([
      s.callTool('read_file', { path: '/src/a.ts' }),
      sleep(75_000).then(() => 'hung' as const),
    ]);
    expect(r, 'a call hung behind an unanswered roots/list').not.toBe('hung');
  }, 90_000);
});

function writePolicy(dir: string): string {
  const p = path.join(dir, 'policy.json');
  fs.writeFileSync(p, JSON.stringify({ rules: [{ decision: 'approve' }] }));
  return p;
}
