import { describe, expect, it } from 'vitest';
import { sandboxToolApproval } from '../../adapters/ai-sdk.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

describe('sandboxToolApproval (ai v7 toolApproval)', () => {
  it('denies blocked calls with the reason, skips pre-approved ones, asks for the rest', async () => {
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(tempDir({ 'a.txt': 'a\n' }), { mode: 'rw' }));
    const decide = sandboxToolApproval(toolset);
    const call = (toolName: string, input: unknown, toolCallId: string) =>
      decide({ toolCall: { toolName, input, toolCallId } });
    expect(await call('read_file', { path: '/a.txt' }, 'r1')).toBe('not-applicable');
    expect(await call('write_file', { path: '/a.txt', content: 'b' }, 'w1')).toMatchObject({
      type: 'user-approval',
      reason: expect.stringContaining('/a.txt'),
    });
    expect(await call('write_file', { path: '/../x', content: 'b' }, 'w2')).toMatchObject({
      type: 'denied',
      reason: expect.stringContaining('may not leave a mount'),
    });
  });
});
