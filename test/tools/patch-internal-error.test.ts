import { describe, expect, it, vi } from 'vitest';
import { err, ok, project } from './fixture.js';

// The strict apply must never fail after the diff was fixed; if it does, the tool reports an
// internal error and writes nothing (safe-patch seed, "Apply Strict Patch" stage).
vi.mock('diff', async (importOriginal) => {
  const real = await importOriginal<typeof import('diff')>();
  return { ...real, applyPatch: vi.fn(() => false) };
});

describe('patch_file internal error', () => {
  it('reports the failed strict apply and leaves the file unchanged', async () => {
    const { toolset } = project({ 'a.txt': 'one\ntwo\n' });
    const sha = String(ok(await toolset.callTool('read_file', { path: '/a.txt' })).sha256);
    const e = err(
      await toolset.callTool('patch_file', {
        path: '/a.txt',
        unified_diff: '@@ @@\n-two\n+TWO\n',
        base_sha256: sha,
      }),
    );
    expect(e.code).toBe('invalid_diff');
    expect(e.message).toMatch(/Internal error/);
    expect(ok(await toolset.callTool('read_file', { path: '/a.txt' })).content).toBe('one\ntwo');
  });
});
