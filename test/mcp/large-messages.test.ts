import fs from 'node:fs';
import path from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { approveAll, call, type StdioSession, startServer } from './stdio-client.js';

const sessions: StdioSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});
async function start(...args: Parameters<typeof startServer>) {
  const s = await startServer(...args);
  sessions.push(s);
  return s;
}

const MiB = 1024 * 1024;
/** Text that JSON escapes heavily (quotes, backslashes, newlines): the transport must allow for it. */
const escapingText = (bytes: number) => 'say "hi" \\ there\n'.repeat(Math.ceil(bytes / 18)).slice(0, bytes);

describe('stdio messages larger than the SDK default of 10 MiB', () => {
  it('a write of more than 10 MiB reaches the tool and is applied; the server keeps serving', async () => {
    const dir = tempDir({ 'keep.txt': 'x\n' });
    const s = await start(['--mount', `${dir}:/:rw`], approveAll);
    const content = escapingText(11 * MiB);
    const r = await call(s, 'write_file', { path: '/big.txt', content });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { bytes: number }).bytes).toBe(Buffer.byteLength(content));
    expect(fs.readFileSync(path.join(dir, 'big.txt'), 'utf8')).toBe(content);
    const after = await call(s, 'read_file', { path: '/keep.txt' });
    expect(after.isError).toBeFalsy();
  }, 120_000);

  it('a message over the limit gets a JSON-RPC error and a line on stderr, and the server keeps serving', async () => {
    const dir = tempDir({ 'keep.txt': 'x\n' });
    const config = path.join(dir, 'config.json');
    fs.mkdirSync(path.join(dir, 'root'));
    fs.writeFileSync(
      config,
      JSON.stringify({ mounts: [{ hostPath: 'root', mountPoint: '/', mode: 'rw', maxFileBytes: MiB }] }),
    );
    const s = await start(['--config', config], approveAll);
    // The limit is 1 MiB × 6 (worst-case escaping) + 1 MiB of framing = 7 MiB.
    const error = await call(s, 'write_file', { path: '/big.txt', content: 'a'.repeat(8 * MiB) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32600);
    expect((error as McpError).message).toMatch(/exceeds this server's limit of 7340032 bytes/);
    await expect.poll(() => s.stderr()).toMatch(/refused a \d+-byte message over the 7340032-byte limit/);
    expect(fs.existsSync(path.join(dir, 'root', 'big.txt'))).toBe(false);
    // Under the message limit but over the file limit: the tool's own size check answers.
    const tooBig = await call(s, 'write_file', { path: '/big.txt', content: 'a'.repeat(2 * MiB) });
    expect(tooBig.isError).toBe(true);
    expect(JSON.stringify(tooBig.structuredContent)).toMatch(/too_large|file_too_large|size/);
    const ok = await call(s, 'write_file', { path: '/small.txt', content: 'fine\n' });
    expect(ok.isError).toBeFalsy();
  }, 120_000);
});
