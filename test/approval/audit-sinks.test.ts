import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { debugLogger, fanOut, jsonlAuditLog } from '../../src/approval/audit-events.js';
import { approveAll } from '../../src/approval/policies.js';
import { tempDir } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

describe('audit sinks', () => {
  it('jsonlAuditLog appends one parseable line per event, without file contents', async () => {
    const log = path.join(tempDir(), 'audit.jsonl');
    const { toolset } = project({ 'a.txt': 'TOP SECRET\n' });
    const gated = new ApprovalToolset(toolset, { approve: approveAll(), onEvent: jsonlAuditLog(log) });
    await gated.callTool('write_file', { path: '/a.txt', content: 'ALSO SECRET\n' }, { toolCallId: 'w1' });
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    const events = lines.map((l) => JSON.parse(l) as { type: string; toolCallId: string });
    expect(events.map((e) => e.type)).toEqual([
      'tool_call',
      'approval_requested',
      'approval_decided',
      'tool_result',
    ]);
    expect(events.every((e) => e.toolCallId === 'w1')).toBe(true);
    expect(fs.readFileSync(log, 'utf8')).not.toMatch(/SECRET/);
  });

  it('debugLogger writes JSON lines to its stream, and a throwing sink never breaks a call', async () => {
    let text = '';
    const stream = new Writable({
      write(chunk, _e, done) {
        text += chunk.toString();
        done();
      },
    });
    const { toolset } = project({ 'a.txt': 'a\n' });
    const broken = () => {
      throw new Error('sink down');
    };
    const gated = new ApprovalToolset(toolset, {
      approve: approveAll(),
      onEvent: fanOut(broken, debugLogger(stream)),
    });
    const outcome = await gated.callTool('read_file', { path: '/a.txt' });
    expect(outcome.ok).toBe(true);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('[sandbox-approval] {')),
    ).toBe(true);
    expect(text).toContain('"type":"tool_result"');
  });
});
