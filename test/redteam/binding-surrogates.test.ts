import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { approveAll } from '../../src/approval/policies.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { snapshot, tempDir } from '../helpers/temp-project.js';

describe('lone surrogates in every text argument of every tool', () => {
  it('are refused as invalid_argument and change nothing', async () => {
    const dir = tempDir({ 'a.txt': 'a\nb\n', 'd/x.txt': 'x\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    const before = snapshot(dir);
    const S = '\uD83D';
    const calls: Array<[string, Record<string, unknown>]> = [
      ['move_file', { source: '/a.txt', destination: `/m${S}.txt` }],
      ['copy_file', { source: '/a.txt', destination: `/c${S}.txt` }],
      ['create_directory', { path: `/dir${S}` }],
      ['write_file', { path: '/a.txt', content: `\uDE00lead` }],
      ['edit_file', { path: '/a.txt', old_string: 'b', new_string: `b${S}`, replace_all: true }],
      [
        'patch_file',
        { path: '/a.txt', base_sha256: 'x'.repeat(64), unified_diff: `@@ -1,2 +1,2 @@\n a\n-b\n+${S}\n` },
      ],
      [
        'edit_lines',
        { path: '/a.txt', operations: [{ op: 'insert_after', hash: `1#AA${S}`, content: 'q' }] },
      ],
      [
        'edit_lines',
        { path: '/a.txt', operations: [{ op: 'insert_after', hash: '1#AA', content: `q${S}` }] },
      ],
    ];
    const codes = [];
    for (const [t, a] of calls) {
      const o = await gated.callTool(t, a);
      codes.push(`${t}:${o.ok ? 'ok' : o.error.code}`);
    }
    expect(snapshot(dir)).toEqual(before);
    expect(codes.filter((c) => !c.endsWith('invalid_argument'))).toEqual([]);
    expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'd']);
    void path;
  });
});
