import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { codeOf } from '../helpers/sandbox-code.js';
import { tempDir } from '../helpers/temp-project.js';

function sandbox() {
  const data = tempDir({ 'sub/a.txt': 'a', 'b.txt': 'b' });
  const out = tempDir({ 'dir1/x.txt': 'x', 'dir2/y.txt': 'y' });
  return new Sandbox({
    mounts: [
      { hostPath: data, mountPoint: '/data', mode: 'ro' },
      { hostPath: out, mountPoint: '/output', mode: 'rw' },
    ],
  });
}

describe('derive options', () => {
  it('accepts a single path as well as a list', () => {
    const child = sandbox().derive({ allowRead: '/data/sub', allowWrite: '/output/dir1' });
    expect(child.readableRoots).toEqual(['/data/sub', '/output/dir1']);
    expect(child.writableRoots).toEqual(['/output/dir1']);
    expect(child.canRead('/data/b.txt')).toBe(false);
    expect(child.canWrite('/output/dir2/y.txt')).toBe(false);
  });

  it('inherit keeps the parent access; a list given alongside narrows that kind of access', () => {
    const parent = sandbox();
    const same = parent.derive({ inherit: true });
    expect(same.readableRoots).toEqual(parent.readableRoots);
    expect(same.writableRoots).toEqual(parent.writableRoots);
    const narrowWrite = parent.derive({ inherit: true, allowWrite: ['/output/dir1'] });
    expect(narrowWrite.canRead('/data/b.txt')).toBe(true);
    expect(narrowWrite.canWrite('/output/dir1/x.txt')).toBe(true);
    expect(narrowWrite.canWrite('/output/dir2/y.txt')).toBe(false);
    const narrowRead = parent.derive({ inherit: true, allowRead: ['/output/dir2'] });
    expect(narrowRead.canRead('/data/b.txt')).toBe(false);
    expect(narrowRead.canWrite('/output/dir2/y.txt')).toBe(true);
    // Writing never reaches past what the child may read.
    expect(narrowRead.canWrite('/output/dir1/x.txt')).toBe(false);
    expect(codeOf(() => narrowRead.resolve('/output/dir1/x.txt', 'write'))).toBe('path_not_in_sandbox');
  });

  it('refuses readonly: false when the parent can write nowhere', () => {
    const ro = new Sandbox({ mounts: [{ hostPath: tempDir(), mountPoint: '/data' }] });
    expect(codeOf(() => ro.derive({ inherit: true, readonly: false }))).toBe('path_not_writable');
    const frozen = sandbox().derive({ inherit: true, readonly: true });
    expect(codeOf(() => frozen.derive({ inherit: true, readonly: false }))).toBe('path_not_writable');
    expect(sandbox().derive({ inherit: true, readonly: false }).writableRoots).toEqual(['/output']);
  });
});
