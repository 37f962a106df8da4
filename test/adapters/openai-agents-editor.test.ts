import fs from 'node:fs';
import path from 'node:path';
import { Agent, applyPatchTool, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { sandboxEditor } from '../../adapters/openai-agents.js';
import { ApprovalAborted } from '../../src/approval/errors.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

setTracingDisabled(true);

type Operation =
  | { type: 'create_file'; path: string; diff: string }
  | { type: 'update_file'; path: string; diff: string; moveTo?: string }
  | { type: 'delete_file'; path: string };

const patchCall = (callId: string, operation: Operation) =>
  ({ type: 'apply_patch_call', callId, status: 'completed', operation }) as never;

/** Runs one scripted apply_patch call through the real SDK and returns what the model got back. */
async function applyThroughSdk(
  toolset: ReturnType<typeof project>['toolset'],
  operation: Operation,
  approve: (r: ApprovalRequest) => { approved: boolean; note?: string } = () => ({ approved: true }),
) {
  const model = new ScriptedModel([[patchCall('p1', operation)], [assistantMessage('done')]]);
  const editor = sandboxEditor(toolset, { approve });
  const agent = new Agent({ name: 'patcher', model, tools: [applyPatchTool({ editor })] });
  const result = await run(agent, 'patch');
  expect(result.finalOutput).toBe('done');
  const sent = model.calls[1]!.request.input as Array<Record<string, unknown>>;
  return sent.find((i) => i.type === 'apply_patch_call_output') as { status: string; output?: string };
}

describe('sandboxEditor (applyPatchTool through the real SDK)', () => {
  it('updates a file from a V4A diff after the user approves the diff it will write', async () => {
    const { dir, toolset } = project({ 'src/a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const shown: ApprovalRequest[] = [];
    const output = await applyThroughSdk(
      toolset,
      { type: 'update_file', path: 'src/a.ts', diff: '@@\n const a = 1;\n-const b = 2;\n+const b = 20;\n' },
      (r) => {
        shown.push(r);
        return { approved: true };
      },
    );
    expect(output.status).toBe('completed');
    expect(read(dir, 'src/a.ts')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
    expect(shown).toHaveLength(1);
    expect(shown[0]!.payload).toMatchObject({ type: 'write', path: '/src/a.ts', fileExists: true });
    expect(shown[0]!.payload.type === 'write' && shown[0]!.payload.unifiedDiff).toContain('+const b = 20;');
  });

  it('creates a new file (with a final newline) and keeps CRLF files CRLF', async () => {
    const { dir, toolset } = project({ 'w.txt': 'one\r\ntwo\r\n' });
    expect(
      (await applyThroughSdk(toolset, { type: 'create_file', path: '/new.md', diff: '+# Title\n+body' }))
        .status,
    ).toBe('completed');
    expect(read(dir, 'new.md')).toBe('# Title\nbody\n');
    await applyThroughSdk(toolset, { type: 'update_file', path: '/w.txt', diff: '@@\n one\n-two\n+TWO\n' });
    expect(read(dir, 'w.txt')).toBe('one\r\nTWO\r\n');
  });

  it('moves with moveTo and deletes, each asked as its own tool call', async () => {
    const { dir, toolset } = project({ 'a.txt': 'x\n', 'gone.txt': 'bye\n' });
    const asked: string[] = [];
    const approve = (r: ApprovalRequest) => {
      asked.push(`${r.toolName}:${r.payload.type}`);
      return { approved: true };
    };
    const moved = await applyThroughSdk(
      toolset,
      { type: 'update_file', path: 'a.txt', diff: '@@\n-x\n+y\n', moveTo: 'b/a.txt' },
      approve,
    );
    expect(moved.status).toBe('completed');
    expect(read(dir, 'b/a.txt')).toBe('y\n');
    expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(false);
    await applyThroughSdk(toolset, { type: 'delete_file', path: 'gone.txt' }, approve);
    expect(fs.existsSync(path.join(dir, 'gone.txt'))).toBe(false);
    expect(asked).toEqual(['write_file:write', 'move_file:move', 'delete_file:delete']);
  });

  it('reports denials, bad diffs, existing targets and escapes as failed, changing nothing', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\n' });
    const denied = await applyThroughSdk(
      toolset,
      { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+ONE\n' },
      () => ({ approved: false, note: 'keep it lowercase' }),
    );
    expect(denied).toMatchObject({ status: 'failed' });
    expect(denied.output).toContain('approval_denied');
    expect(denied.output).toContain('keep it lowercase');

    const bad = await applyThroughSdk(toolset, {
      type: 'update_file',
      path: 'a.txt',
      diff: '@@\n-nothere\n+x\n',
    });
    expect(bad.output).toMatch(/^error invalid_diff: The diff for \/a.txt does not apply/);

    const exists = await applyThroughSdk(toolset, { type: 'create_file', path: 'a.txt', diff: '+new\n' });
    expect(exists.output).toContain('already exists');

    const escaped = await applyThroughSdk(toolset, {
      type: 'create_file',
      path: '../outside.txt',
      diff: '+x\n',
    });
    expect(escaped.status).toBe('failed');
    expect(escaped.output).toContain('path_not_in_sandbox');
    expect(escaped.output).not.toContain(dir);
    expect(fs.existsSync(path.join(dir, '..', 'outside.txt'))).toBe(false);
    expect(read(dir, 'a.txt')).toBe('one\n');
  });

  it('lets quitting at the prompt end the run', async () => {
    const { toolset } = project({ 'a.txt': 'one\n' });
    const editor = sandboxEditor(toolset, {
      approve: () => {
        throw new ApprovalAborted();
      },
    });
    await expect(editor.deleteFile({ type: 'delete_file', path: 'a.txt' })).rejects.toBeInstanceOf(
      ApprovalAborted,
    );
  });

  it('an update whose write is applied and whose move is denied is reported as applied in part, not failed', async () => {
    const { dir, toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const output = await applyThroughSdk(
      toolset,
      { type: 'update_file', path: 'a.txt', diff: '@@\n one\n-two\n+TWO\n', moveTo: 'b.txt' },
      (r) => (r.toolName === 'move_file' ? { approved: false, note: 'keep the name' } : { approved: true }),
    );
    expect(read(dir, 'a.txt')).toBe('one\nTWO\n');
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
    expect(output.status).toBe('completed');
    expect(output.output).toMatch(/content change to \/a\.txt was applied/);
    expect(output.output).toMatch(/move to \/b\.txt was not: .*approval_denied.*keep the name/s);
  });
});
