import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ApprovalAborted } from '../../src/approval/errors.js';
import { createMcpServer, type McpServerOptions } from '../../src/mcp/index.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

type Answer = (message: string) => ElicitResult | Promise<ElicitResult>;

async function connect(
  dir: string,
  options: McpServerOptions = {},
  answer?: Answer,
): Promise<{ client: Client; asked: string[] }> {
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: path.join(dir, 'src'), mountPoint: '/src', mode: 'rw' },
      { hostPath: path.join(dir, 'docs'), mountPoint: '/docs', mode: 'ro' },
    ],
  });
  const server = createMcpServer(new FileSystemToolset(sandbox), options);
  const client = new Client(
    { name: 'test', version: '1' },
    answer ? { capabilities: { elicitation: {} } } : {},
  );
  const asked: string[] = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return answer(req.params.message);
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, asked };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const codeOf = (r: CallToolResult) => (r.structuredContent as { error?: { code: string } }).error?.code;
const project = () => tempDir({ 'src/a.ts': 'const a = 1;\nconst b = 2;\n', 'docs/readme.md': '# Docs\n' });

describe('createMcpServer (in memory)', () => {
  it('lists the toolset tools plus read_many_files and create_directory, with JSON Schemas', async () => {
    const { client } = await connect(project());
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['read_file', 'write_file', 'edit_file', 'patch_file', 'edit_lines']),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'list_files',
        'delete_file',
        'move_file',
        'copy_file',
        'read_many_files',
        'create_directory',
      ]),
    );
    const edit = tools.find((t) => t.name === 'edit_file')!;
    expect(edit.inputSchema.type).toBe('object');
    expect(edit.inputSchema.required).toEqual(expect.arrayContaining(['path', 'old_string', 'new_string']));
    expect(edit.description).toMatch(/old_string/);
    expect(edit.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
    expect(tools.find((t) => t.name === 'read_file')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('reads with text and structuredContent', async () => {
    const { client } = await connect(project());
    const r = await call(client, 'read_file', { path: '/src/a.ts' });
    expect(r.isError).toBeFalsy();
    expect((r.content[0] as { text: string }).text).toContain('const b = 2;');
    expect(r.structuredContent).toMatchObject({ path: '/src/a.ts', total_lines: 2 });
  });

  it('deny mode without elicitation: a write is approval_blocked, saying how to enable it, nothing written', async () => {
    const dir = project();
    const { client } = await connect(dir);
    const r = await call(client, 'write_file', { path: '/src/new.ts', content: 'x\n' });
    expect(r.isError).toBe(true);
    expect(codeOf(r)).toBe('approval_blocked');
    expect((r.content[0] as { text: string }).text).toMatch(/--approve tty|elicitation/);
    expect(fs.existsSync(path.join(dir, 'src/new.ts'))).toBe(false);
  });

  it('elicitation accept+approve applies the edit; the message shows the diff', async () => {
    const dir = project();
    const { client, asked } = await connect(dir, {}, () => ({
      action: 'accept',
      content: { decision: 'approve' },
    }));
    const r = await call(client, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 3;',
    });
    expect(r.isError).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('/src/a.ts');
    expect(asked[0]).toMatch(/ -const b = .*2/);
    expect(asked[0]).toMatch(/ \+const b = .*3/);
  });

  it('deny with a note → approval_denied carrying the note; decline too; cancel refuses', async () => {
    const dir = project();
    const answers: ElicitResult[] = [
      { action: 'accept', content: { decision: 'deny', note: 'use const c instead' } },
      { action: 'decline' },
      { action: 'cancel' },
    ];
    const { client } = await connect(dir, {}, () => answers.shift()!);
    const args = { path: '/src/a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' };
    const denied = await call(client, 'edit_file', args);
    expect(codeOf(denied)).toBe('approval_denied');
    expect((denied.content[0] as { text: string }).text).toContain('use const c instead');
    expect(codeOf(await call(client, 'edit_file', args))).toBe('approval_denied');
    const cancelled = await call(client, 'edit_file', args);
    expect(codeOf(cancelled)).toBe('approval_denied');
    expect((cancelled.content[0] as { text: string }).text).toMatch(/dismissed/);
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('a note given with an approval reaches the model with the result', async () => {
    const dir = project();
    const { client } = await connect(dir, {}, () => ({
      action: 'accept',
      content: { decision: 'approve', note: 'fine, but add a test next' },
    }));
    const r = await call(client, 'write_file', { path: '/src/n.ts', content: 'x\n' });
    expect(r.isError).toBeFalsy();
    expect((r.content[0] as { text: string }).text).toContain('noted: "fine, but add a test next"');
    expect(r.structuredContent).toMatchObject({ path: '/src/n.ts', user_note: 'fine, but add a test next' });
  });

  it('approve and remember for this file: the next edit of the file is not asked', async () => {
    const dir = project();
    const { client, asked } = await connect(dir, {}, () => ({
      action: 'accept',
      content: { decision: 'approve_file' },
    }));
    await call(client, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const a = 1;',
      new_string: 'const a = 10;',
    });
    const r = await call(client, 'edit_file', {
      path: '/src/a.ts',
      old_string: 'const b = 2;',
      new_string: 'const b = 20;',
    });
    expect(r.isError).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe('const a = 10;\nconst b = 20;\n');
  });

  it('policy: matching rules approve or deny without asking; no match in policy mode is blocked', async () => {
    const dir = project();
    const { client } = await connect(dir, {
      approval: {
        mode: 'policy',
        policy: {
          rules: [
            { tools: ['write_file'], paths: ['/src/gen/**'], decision: 'approve' },
            { tools: ['delete_file'], decision: 'deny', note: 'never delete' },
          ],
        },
      },
    });
    expect((await call(client, 'write_file', { path: '/src/gen/x.ts', content: 'x\n' })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'src/gen/x.ts'), 'utf8')).toBe('x\n');
    const del = await call(client, 'delete_file', { path: '/src/a.ts' });
    expect(codeOf(del)).toBe('approval_denied');
    expect((del.content[0] as { text: string }).text).toContain('never delete');
    expect(codeOf(await call(client, 'write_file', { path: '/src/other.ts', content: 'y\n' }))).toBe(
      'approval_blocked',
    );
    expect(fs.existsSync(path.join(dir, 'src/a.ts'))).toBe(true);
  });

  it('tool failures are isError results with stable codes: unknown tool, bad arguments, escapes', async () => {
    const dir = project();
    const { client } = await connect(dir);
    expect(codeOf(await call(client, 'no_such_tool', {}))).toBe('invalid_argument');
    expect(codeOf(await call(client, 'read_file', { path: 3 }))).toBe('invalid_argument');
    const climbed = await call(client, 'read_file', { path: '/src/../../etc/passwd' });
    // Sandbox refusals are policy blocks at the approval layer (as in every adapter).
    expect(codeOf(climbed)).toBe('approval_blocked');
    expect((climbed.content[0] as { text: string }).text).toMatch(/climb above/);
    expect(JSON.stringify(climbed)).not.toContain(dir);
    expect(codeOf(await call(client, 'write_file', { path: '/docs/x.md', content: 'x' }))).toBe(
      'approval_blocked',
    );
  });

  it('a client whose elicitation fails, and a quit at the approver, are refusals, not protocol errors', async () => {
    const dir = project();
    const { client } = await connect(dir, {}, () => {
      throw new Error('the UI crashed');
    });
    const failed = await call(client, 'write_file', { path: '/src/n.ts', content: 'x\n' });
    expect(codeOf(failed)).toBe('approval_denied');
    expect((failed.content[0] as { text: string }).text).toMatch(/could not be completed/);
    const quit = await connect(dir, {
      approval: () => {
        throw new ApprovalAborted();
      },
    });
    const aborted = await call(quit.client, 'write_file', { path: '/src/n.ts', content: 'x\n' });
    expect(codeOf(aborted)).toBe('approval_denied');
    expect((aborted.content[0] as { text: string }).text).toMatch(/quit/);
    expect(fs.existsSync(path.join(dir, 'src/n.ts'))).toBe(false);
    // The server keeps serving after both.
    expect((await call(quit.client, 'read_file', { path: '/src/a.ts' })).isError).toBeFalsy();
  });

  it('an unexpected error is an io_error result naming no host path; the details go to the log', async () => {
    const dir = project();
    const logged: string[] = [];
    const { client } = await connect(dir, {
      log: (line) => logged.push(line),
      approval: () => {
        throw new Error(`disk trouble at ${dir}`);
      },
    });
    const r = await call(client, 'write_file', { path: '/src/n.ts', content: 'x\n' });
    expect(codeOf(r)).toBe('io_error');
    expect(JSON.stringify(r)).not.toContain(dir);
    expect(logged.join('\n')).toContain(`disk trouble at ${dir}`);
  });

  it('parallel calls: one approval request at a time, each applied', async () => {
    const dir = project();
    let open = 0;
    let most = 0;
    const { client, asked } = await connect(dir, {}, async () => {
      most = Math.max(most, ++open);
      await new Promise((r) => setTimeout(r, 20));
      open--;
      return { action: 'accept' as const, content: { decision: 'approve' } };
    });
    const results = await Promise.all(
      ['x', 'y', 'z'].map((n) => call(client, 'write_file', { path: `/src/${n}.ts`, content: `${n}\n` })),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(asked).toHaveLength(3);
    expect(most).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'src/z.ts'), 'utf8')).toBe('z\n');
  });

  it('progress notifications while the person decides keep a client with resetTimeoutOnProgress waiting', async () => {
    const dir = project();
    const { client } = await connect(dir, { progressIntervalMs: 30 }, async () => {
      await new Promise((r) => setTimeout(r, 400));
      return { action: 'accept' as const, content: { decision: 'approve' } };
    });
    let progress = 0;
    const r = (await client.callTool(
      { name: 'write_file', arguments: { path: '/src/slow.ts', content: 's\n' } },
      undefined,
      { timeout: 150, resetTimeoutOnProgress: true, onprogress: () => progress++ },
    )) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(progress).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(dir, 'src/slow.ts'), 'utf8')).toBe('s\n');
  });

  it('approval as a callback decides when the client cannot be asked', async () => {
    const dir = project();
    const { client } = await connect(dir, { approval: () => ({ approved: true }) });
    expect((await call(client, 'write_file', { path: '/src/n.ts', content: 'x\n' })).isError).toBeFalsy();
    expect(fs.readFileSync(path.join(dir, 'src/n.ts'), 'utf8')).toBe('x\n');
  });

  it('read_many_files: several files with version and sha256, per-file errors', async () => {
    const { client } = await connect(project());
    const r = await call(client, 'read_many_files', {
      paths: ['/src/a.ts', '/docs/readme.md', '/src/missing.ts'],
    });
    const files = (r.structuredContent as { files: Record<string, unknown>[] }).files;
    expect(files[0]).toMatchObject({ path: '/src/a.ts', content: 'const a = 1;\nconst b = 2;\n' });
    expect(files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(files[1]).toMatchObject({ path: '/docs/readme.md', content: '# Docs\n' });
    expect(files[2]).toMatchObject({ path: '/src/missing.ts', error: { code: 'not_found' } });
  });

  it('create_directory goes through approval and creates missing parents', async () => {
    const dir = project();
    const { client, asked } = await connect(dir, {}, () => ({
      action: 'accept',
      content: { decision: 'approve' },
    }));
    const r = await call(client, 'create_directory', { path: '/src/x/y' });
    expect(r.structuredContent).toEqual({ path: '/src/x/y', created: true });
    expect(fs.statSync(path.join(dir, 'src/x/y')).isDirectory()).toBe(true);
    expect(asked[0]).toContain('/src/x/y');
    const again = await call(client, 'create_directory', { path: '/src/x/y' });
    expect(again.structuredContent).toEqual({ path: '/src/x/y', created: false });
    expect(codeOf(await call(client, 'create_directory', { path: '/docs/new' }))).toBe('approval_blocked');
  });
});
