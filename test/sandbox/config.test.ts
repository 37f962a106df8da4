import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, SandboxConfigError, SandboxError } from '../../src/contract/errors.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { tempDir } from '../helpers/temp-project.js';

function configError(fn: () => unknown): SandboxConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SandboxConfigError) return e;
    throw e;
  }
  throw new Error('expected a SandboxConfigError');
}

describe('mount configuration', () => {
  it('applies the defaults: read-only, write approval on, read approval off', () => {
    const dir = tempDir();
    const sandbox = new Sandbox({ mounts: [{ hostPath: dir, mountPoint: '/m' }] });
    expect(sandbox.mounts[0]).toMatchObject({ mode: 'ro', writeApproval: true, readApproval: false });
    expect(sandbox.canWrite('/m/x')).toBe(false);
    expect(sandbox.needsWriteApproval('/m/x')).toBe(true);
    expect(sandbox.needsReadApproval('/m/x')).toBe(false);
  });

  it('resolves relative host paths against basePath', () => {
    const base = tempDir({ 'sub/a.txt': 'a' });
    const sandbox = new Sandbox({ mounts: [{ hostPath: 'sub', mountPoint: '/s' }] }, { basePath: base });
    expect(sandbox.resolve('/s/a.txt', 'read').hostPath).toBe(fs.realpathSync(path.join(base, 'sub/a.txt')));
  });

  it('names every problem at once', () => {
    const dir = tempDir({ 'file.txt': 'x' });
    const e = configError(
      () =>
        new Sandbox({
          mounts: [
            { hostPath: dir, mountPoint: 'src' },
            { hostPath: path.join(dir, 'missing'), mountPoint: '/b/' },
            { hostPath: path.join(dir, 'file.txt'), mountPoint: '/c' },
            { hostPath: dir, mountPoint: '/d', suffixes: ['md'] },
          ],
        }),
    );
    expect(e.code).toBe('invalid_argument');
    expect(e.problems.join('\n')).toMatch(/must start with "\/"/);
    expect(e.problems.join('\n')).toMatch(/must not end with "\/"/);
    expect(e.problems.join('\n')).toMatch(/does not exist/);
    expect(e.problems.join('\n')).toMatch(/not a directory/);
    expect(e.problems.join('\n')).toMatch(/suffix "md" must start with "."/);
    expect(e.problems.length).toBeGreaterThanOrEqual(5);
  });

  it('rejects duplicate mount points, overlapping host paths (also through a symlink) and empty configs', () => {
    const a = tempDir({ 'inner/x': 'x' });
    const b = tempDir();
    expect(
      configError(
        () =>
          new Sandbox({
            mounts: [
              { hostPath: a, mountPoint: '/x' },
              { hostPath: b, mountPoint: '/x' },
            ],
          }),
      ).message,
    ).toMatch(/duplicate/);
    expect(
      configError(
        () =>
          new Sandbox({
            mounts: [
              { hostPath: a, mountPoint: '/x' },
              { hostPath: path.join(a, 'inner'), mountPoint: '/y' },
            ],
          }),
      ).message,
    ).toMatch(/overlap/);
    fs.symlinkSync(a, path.join(b, 'alias'));
    expect(
      configError(
        () =>
          new Sandbox({
            mounts: [
              { hostPath: a, mountPoint: '/x' },
              { hostPath: path.join(b, 'alias'), mountPoint: '/y' },
            ],
          }),
      ).message,
    ).toMatch(/overlap/);
    expect(configError(() => new Sandbox({ mounts: [] })).message).toMatch(/at least one mount/);
    expect(
      configError(() => new Sandbox({ mounts: [{ hostPath: a, mountPoint: '/x', mode: 'rx' as never }] }))
        .message,
    ).toMatch(/mode/);
  });

  it('allows nested mount points; the most specific wins', () => {
    const outer = tempDir({ 'a.txt': 'outer' });
    const inner = tempDir({ 'a.txt': 'inner' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: outer, mountPoint: '/p', mode: 'rw' },
        { hostPath: inner, mountPoint: '/p/nested' },
      ],
    });
    expect(sandbox.resolve('/p/nested/a.txt', 'read').mount.mountPoint).toBe('/p/nested');
    expect(sandbox.resolve('/p/a.txt', 'read').mount.mountPoint).toBe('/p');
    expect(sandbox.canWrite('/p/a.txt')).toBe(true);
    expect(sandbox.canWrite('/p/nested/a.txt')).toBe(false);
  });
});

describe('mount configuration errors', () => {
  it('still names host-path and mount-point problems when another field fails the schema', () => {
    const dir = tempDir();
    const e = configError(
      () =>
        new Sandbox({
          mounts: [
            { hostPath: path.join(dir, 'missing'), mountPoint: 'nope', mode: 'rx' as never },
            { hostPath: dir, mountPoint: '/ok', maxFileBytes: -1 },
            { mountPoint: '/no-host' } as never,
          ],
        }),
    );
    const text = e.problems.join('\n');
    expect(text).toMatch(/mounts\[0\] \(nope\): mode/);
    expect(text).toMatch(/mounts\[0\] \(nope\): mount point "nope" must start with "\/"/);
    expect(text).toMatch(/mounts\[0\] \(nope\): hostPath ".*missing" does not exist/);
    expect(text).toMatch(/mounts\[1\] \(\/ok\): maxFileBytes/);
    expect(text).toMatch(/mounts\[2\] \(\/no-host\): hostPath/);
    expect(e.problems).toHaveLength(5);
  });
});

describe('SandboxError: one class, told apart by code', () => {
  it('property: any code and message round-trip through toJSON, and instanceof holds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ERROR_CODES),
        fc.string(),
        fc.array(fc.string(), { maxLength: 3 }),
        (code, message, suggestions) => {
          const error = new SandboxError(code, message, { suggestions });
          expect(error).toBeInstanceOf(SandboxError);
          expect(error).toBeInstanceOf(Error);
          expect(error.name).toBe('SandboxError');
          expect(error.toJSON()).toEqual({
            code,
            message,
            ...(suggestions.length > 0 ? { suggestions } : {}),
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
