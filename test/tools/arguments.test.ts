import { describe, expect, it } from 'vitest';
import { err, project } from './fixture.js';

describe('argument validation', () => {
  it('names an empty path together with the other bad fields, before touching the disk', async () => {
    const { toolset } = project();
    const write = err(await toolset.callTool('write_file', { path: '', content: 5 }));
    expect(write.code).toBe('invalid_argument');
    expect(write.details?.fields).toEqual([
      expect.stringMatching(/^path: must not be empty/),
      expect.stringMatching(/^content: /),
    ]);
    const move = err(await toolset.callTool('move_file', { source: '', destination: '' }));
    expect(move.details?.fields).toEqual([
      expect.stringMatching(/^source: must not be empty/),
      expect.stringMatching(/^destination: must not be empty/),
    ]);
    for (const [tool, args] of [
      ['read_file', { path: '' }],
      ['edit_file', { path: '', old_string: 'a', new_string: 'b' }],
      ['patch_file', { path: '', unified_diff: '', base_sha256: '' }],
      ['delete_file', { path: '' }],
      ['edit_lines', { path: '', operations: [{ op: 'delete_line', hash: 'abcdef' }] }],
    ] as const) {
      const e = err(await toolset.callTool(tool, args));
      expect(e.code, tool).toBe('invalid_argument');
      expect(e.message, tool).toMatch(/path: must not be empty/);
    }
  });
});
