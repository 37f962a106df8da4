import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/index.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import type { ChangeSet } from '../../src/staging/change-set.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { read, tempDir } from '../helpers/temp-project.js';

async function connect(
  dir: string,
  answer?: (params: Record<string, unknown>) => ElicitResult,
  reviewer?: (s: ChangeSet) => never,
) {
  const server = createMcpServer(new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' })), {
    review: reviewer ? { reviewer } : true,
  });
  const client = new Client(
    { name: 'test', version: '1' },
    answer ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (answer) client.setRequestHandler(ElicitRequestSchema, (req) => answer(req.params as never));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('MCP submit_changes', () => {
  it('stages writes, asks with a per-file form (per-change checkboxes, notes), applies what was kept', async () => {
    const dir = tempDir({ 'a.txt': '1\n2\n3\n4\n5\n6\n7\n8\n', 'b.txt': 'b\n' });
    let form: { message: string; requestedSchema: { properties: Record<string, unknown> } } | undefined;
    const client = await connect(dir, (params) => {
      form = params as never;
      return {
        action: 'accept',
        content: {
          file_0: 'accept',
          file_0_change_1: false,
          note_0: 'keep 7',
          file_1: 'reject',
          note_1: 'not b',
        },
      };
    });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('submit_changes');
    expect(
      (await call(client, 'edit_file', { path: '/a.txt', old_string: '2\n', new_string: 'two\n' })).isError,
    ).toBeFalsy();
    await call(client, 'edit_file', { path: '/a.txt', old_string: '7\n', new_string: 'seven\n' });
    await call(client, 'write_file', { path: '/b.txt', content: 'bee\n' });
    expect(text(await call(client, 'read_file', { path: '/a.txt' }))).toContain('seven');
    expect(read(dir, 'a.txt')).toBe('1\n2\n3\n4\n5\n6\n7\n8\n');
    const result = await call(client, 'submit_changes', { summary: 'numbers as words' });
    expect(form!.message).toContain('The agent says: numbers as words');
    expect(form!.message).toContain('+seven');
    expect(Object.keys(form!.requestedSchema.properties)).toEqual([
      'file_0',
      'file_0_change_0',
      'file_0_change_1',
      'note_0',
      'file_1',
      'note_1',
    ]);
    expect(result.isError).toBeFalsy();
    expect(read(dir, 'a.txt')).toBe('1\ntwo\n3\n4\n5\n6\n7\n8\n');
    expect(read(dir, 'b.txt')).toBe('b\n');
    expect(text(result)).toContain('partly applied: 1 change(s) accepted, 1 rejected at line 7');
    expect(text(result)).toContain('Note: "not b"');
  });

  it('without elicitation or a reviewer nothing is applied, and the model is told', async () => {
    const dir = tempDir({ 'a.txt': 'a\n' });
    const client = await connect(dir);
    await call(client, 'write_file', { path: '/a.txt', content: 'A\n' });
    const result = await call(client, 'submit_changes', {});
    expect(read(dir, 'a.txt')).toBe('a\n');
    expect(text(result)).toContain('Nobody could review the changes');
  });
});
