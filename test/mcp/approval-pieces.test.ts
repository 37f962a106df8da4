import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { compilePolicy } from '../../src/mcp/approval-policy.js';
import { approvalElicitation, CANCELLED_NOTE, decisionFromElicitation } from '../../src/mcp/elicitation.js';
import { ApprovalUnavailable, denyFallback, ttyFallback } from '../../src/mcp/fallback-approval.js';
import { payloadText } from '../../src/mcp/payload-text.js';
import { tempDir } from '../helpers/temp-project.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join('\n');

function writeRequest(content: string, path = '/src/a.ts'): ApprovalRequest {
  const count = content.split('\n').length;
  return {
    toolName: 'write_file',
    args: { path, content },
    description: `Write ${path}`,
    payload: {
      type: 'write',
      description: `Write ${path}`,
      path,
      mount: '/src',
      baseSha256: null,
      content,
      contentLines: count,
      contentBytes: content.length,
      preview: content,
      previewTruncated: false,
      fileExists: false,
      existingLines: null,
      existingBytes: null,
    },
  };
}

describe('elicitation form', () => {
  it('shows the payload, bounded with a count of the lines left out', () => {
    const text = payloadText(writeRequest(lines(100)), { maxLines: 10 });
    expect(text).toContain('/src/a.ts');
    expect(text).toContain('l1');
    expect(text).not.toContain('l50');
    expect(text).toMatch(/… \d+ more lines \(not shown\)$/);
    expect(payloadText(writeRequest('one\n'))).not.toMatch(/more line/);
  });

  it('asks approve / approve-and-remember (file, mount, tool) / deny, plus a note', () => {
    const params = approvalElicitation(writeRequest('x\n'));
    const props = params.requestedSchema.properties as Record<
      string,
      { oneOf?: { const: string; title: string }[] }
    >;
    expect(props.decision!.oneOf!.map((o) => o.const)).toEqual([
      'approve',
      'approve_file',
      'approve_mount',
      'approve_tool',
      'deny',
    ]);
    expect(params.message).toContain('this file = /src/a.ts, this mount = /src, this tool = write_file');
    // One schema object for all requests: the SDK's Ajv compiles and caches per object.
    expect(approvalElicitation(writeRequest('y\n', '/src/b.ts')).requestedSchema).toBe(
      params.requestedSchema,
    );
    expect(props.note).toBeDefined();
    expect(params.requestedSchema.required).toEqual(['decision']);
    expect(params.message).toMatch(/^Approve this write_file call\?/);
  });

  it('maps answers to decisions; anything unreadable denies', () => {
    expect(decisionFromElicitation({ action: 'accept', content: { decision: 'approve' } })).toEqual({
      approved: true,
    });
    expect(
      decisionFromElicitation({ action: 'accept', content: { decision: 'approve_mount', note: ' ok ' } }),
    ).toEqual({
      approved: true,
      note: 'ok',
      remember: { scope: 'mount' },
    });
    expect(decisionFromElicitation({ action: 'accept', content: { decision: 'deny', note: 'no' } })).toEqual({
      approved: false,
      note: 'no',
    });
    expect(decisionFromElicitation({ action: 'decline' })).toEqual({ approved: false });
    expect(decisionFromElicitation({ action: 'cancel' })).toEqual({ approved: false, note: CANCELLED_NOTE });
    expect(decisionFromElicitation({ action: 'accept', content: { decision: 'yes please' } }).approved).toBe(
      false,
    );
    expect(decisionFromElicitation({ action: 'accept' }).approved).toBe(false);
  });
});

describe('approval policy', () => {
  const decide = compilePolicy({
    rules: [
      { tools: ['edit_file'], paths: ['/src/**'], decision: 'approve' },
      { paths: ['/src/secret/**'], decision: 'deny', note: 'hands off' },
      { tools: ['move_file'], paths: ['/src/**'], decision: 'approve' },
    ],
  });
  const req = (toolName: string, payload: Record<string, unknown>) =>
    ({
      toolName,
      args: {},
      description: '',
      payload: { description: '', mount: '/src', ...payload },
    }) as ApprovalRequest;

  it('first matching rule decides; no match is undefined', () => {
    expect(decide(req('edit_file', { type: 'edit', path: '/src/a.ts' }))).toEqual({ decision: 'approve' });
    expect(decide(req('write_file', { type: 'write', path: '/src/secret/k' }))).toEqual({
      decision: 'deny',
      note: 'hands off',
    });
    expect(decide(req('write_file', { type: 'write', path: '/src/a.ts' }))).toBeUndefined();
    expect(decide(req('edit_file', { type: 'edit', path: '/docs/a.md' }))).toBeUndefined();
  });

  it('a move or copy matches only when both source and destination match', () => {
    const move = (destination: string) =>
      req('move_file', {
        type: 'move',
        path: '/src/a.ts',
        source: '/src/a.ts',
        destination,
        destinationMount: '/x',
      });
    expect(decide(move('/src/b.ts'))).toEqual({ decision: 'approve' });
    expect(decide(move('/other/b.ts'))).toBeUndefined();
  });
});

describe('fallbacks without elicitation', () => {
  it('deny refuses with how to enable approvals', () => {
    expect(() => denyFallback()(writeRequest('x'))).toThrow(ApprovalUnavailable);
    expect(() => denyFallback()(writeRequest('x'))).toThrow(/--approve tty/);
  });

  it('tty without a terminal refuses, saying there is none', () => {
    const dir = tempDir({ 'not-a-tty': '' });
    const approve = ttyFallback({ device: path.join(dir, 'not-a-tty') });
    expect(() => approve(writeRequest('x'))).toThrow(/no controlling terminal/);
    expect(() => ttyFallback({ device: path.join(dir, 'missing') })(writeRequest('x'))).toThrow(
      /no controlling terminal/,
    );
    expect(fs.readFileSync(path.join(dir, 'not-a-tty'), 'utf8')).toBe('');
  });
});
