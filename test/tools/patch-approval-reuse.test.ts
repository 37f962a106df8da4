import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { approveAll, denyAll } from '../../src/approval/policies.js';
import { fixUnifiedDiff } from '../../src/edit/fix-unified-diff.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { ok, project } from './fixture.js';

// The patch computed while asking for approval is reused by the execute that follows,
// only for the same file content and the same diff.
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const DIFF = '@@ @@\n b\n-c\n+C\n';

describe('patch_file under approval', () => {
  it('writes what patching the approved content gives', async () => {
    const text = 'a\nb\nc\n';
    const { dir, toolset } = project({ 'f.txt': text });
    const gated = new ApprovalToolset(toolset, { approve: approveAll() });
    ok(await gated.callTool('patch_file', { path: '/f.txt', unified_diff: DIFF, base_sha256: sha(text) }));
    const expected = fixUnifiedDiff(text, DIFF);
    expect(expected.ok && fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(
      expected.ok && expected.newText,
    );
  });

  it('never reuses a patch computed for other content', async () => {
    const before = 'a\nb\nc\n';
    const { dir, toolset } = project({ 'f.txt': before });
    const denied = await new ApprovalToolset(toolset, { approve: denyAll() }).callTool('patch_file', {
      path: '/f.txt',
      unified_diff: DIFF,
      base_sha256: sha(before),
    });
    expect(denied.ok).toBe(false);
    // The same diff, now against changed content, through a mount that needs no approval.
    const after = 'a\nb\nc\nd\n';
    fs.writeFileSync(path.join(dir, 'f.txt'), after);
    const direct = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    ok(await direct.callTool('patch_file', { path: '/f.txt', unified_diff: DIFF, base_sha256: sha(after) }));
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('a\nb\nC\nd\n');
  });
});
