import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SandboxError } from '../../src/contract/errors.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { codeOf } from '../helpers/sandbox-code.js';
import { tempDir } from '../helpers/temp-project.js';

function twoMounts() {
  const src = tempDir({ 'main.ts': 'x', 'util/helpers.ts': 'y' });
  const docs = tempDir({ 'guide.md': '# g', 'notes.txt': 'n' });
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: src, mountPoint: '/src', mode: 'rw' },
      {
        hostPath: docs,
        mountPoint: '/docs',
        mode: 'ro',
        suffixes: ['.md'],
        maxFileBytes: 10,
        readApproval: true,
        writeApproval: false,
      },
    ],
  });
  return { src, docs, sandbox };
}

describe('Sandbox methods', () => {
  it('resolve returns the virtual path, real host path, mount and kind', () => {
    const { src, sandbox } = twoMounts();
    const r = sandbox.resolve('/src/./util//helpers.ts', 'read');
    expect(r).toMatchObject({ virtualPath: '/src/util/helpers.ts', kind: 'file', size: 1 });
    expect(r.hostPath).toBe(fs.realpathSync(path.join(src, 'util/helpers.ts')));
    expect(r.mount.mountPoint).toBe('/src');
    expect(sandbox.resolve('src/new/file.ts', 'write')).toMatchObject({
      virtualPath: '/src/new/file.ts',
      kind: 'missing',
    });
    expect(sandbox.resolve('/src/util', 'list').kind).toBe('directory');
    expect(sandbox.resolve('/src/util/../main.ts', 'read').virtualPath).toBe('/src/main.ts');
  });

  it('reports roots, permissions, approvals, suffixes and sizes', () => {
    const { sandbox } = twoMounts();
    expect(sandbox.readableRoots).toEqual(['/docs', '/src']);
    expect(sandbox.writableRoots).toEqual(['/src']);
    expect(sandbox.canRead('/docs/guide.md')).toBe(true);
    expect(sandbox.canWrite('/docs/guide.md')).toBe(false);
    expect(sandbox.canRead('/etc/passwd')).toBe(false);
    expect(sandbox.needsReadApproval('/docs/guide.md')).toBe(true);
    expect(sandbox.needsWriteApproval('/docs/guide.md')).toBe(false);
    expect(codeOf(() => sandbox.checkSuffix('/docs/notes.txt'))).toBe('suffix_not_allowed');
    expect(codeOf(() => sandbox.checkSuffix('/docs/guide.MD'))).toBe('ok');
    expect(codeOf(() => sandbox.checkSize('/docs/guide.md', 11))).toBe('file_too_large');
    expect(codeOf(() => sandbox.checkSize('/src/main.ts', 10_000_000))).toBe('ok');
    expect(codeOf(() => sandbox.resolve('/docs/notes.txt', 'read'))).toBe('suffix_not_allowed');
    expect(codeOf(() => sandbox.resolve('/docs/guide.md', 'write'))).toBe('path_not_writable');
  });

  it('says what IS allowed, with suggestions and virtual paths only', () => {
    const { src, docs, sandbox } = twoMounts();
    const errors: SandboxError[] = [];
    for (const [p, op] of [
      ['/srcx/main.ts', 'read'],
      ['/src/mian.ts', 'read'],
      ['/docs/guide.md', 'write'],
      ['/docs/notes.txt', 'read'],
    ] as const) {
      try {
        sandbox.resolve(p, op);
      } catch (e) {
        errors.push(e as SandboxError);
      }
    }
    expect(errors.map((e) => e.code)).toEqual([
      'path_not_in_sandbox',
      'not_found',
      'path_not_writable',
      'suffix_not_allowed',
    ]);
    expect(errors[0]!.message).toContain('Readable roots: /docs, /src');
    expect(errors[0]!.suggestions).toContain('/src');
    expect(errors[1]!.suggestions).toEqual(['/src/main.ts']);
    expect(errors[2]!.message).toContain('Writable roots: /src');
    expect(errors[3]!.message).toContain('.md');
    for (const e of errors) {
      expect(`${e.message} ${e.suggestions.join(' ')}`).not.toContain(src);
      expect(`${e.message} ${e.suggestions.join(' ')}`).not.toContain(docs);
    }
  });

  it('fromDirectory mounts one directory at "/"', () => {
    const dir = tempDir({ 'a.txt': 'a' });
    const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw' });
    expect(sandbox.readableRoots).toEqual(['/']);
    expect(sandbox.resolve('/a.txt', 'write').virtualPath).toBe('/a.txt');
    expect(codeOf(() => sandbox.resolve('/..', 'read'))).toBe('path_not_in_sandbox');
  });
});

describe('derive', () => {
  it('starts with no access and grants only what is named', () => {
    const { sandbox } = twoMounts();
    const none = sandbox.derive();
    expect(none.readableRoots).toEqual([]);
    expect(codeOf(() => none.resolve('/src/main.ts', 'read'))).toBe('path_not_in_sandbox');
    const child = sandbox.derive({ allowRead: ['/docs'], allowWrite: ['/src/util'] });
    expect(child.readableRoots).toEqual(['/docs', '/src/util']);
    expect(child.writableRoots).toEqual(['/src/util']);
    expect(child.canWrite('/src/util/helpers.ts')).toBe(true);
    expect(child.canWrite('/src/main.ts')).toBe(false);
    expect(child.canRead('/src/main.ts')).toBe(false);
  });

  it('can never gain a permission its parent lacks, through any chain', () => {
    const { sandbox } = twoMounts();
    expect(codeOf(() => sandbox.derive({ allowWrite: ['/docs'] }))).toBe('path_not_writable');
    const ro = sandbox.derive({ inherit: true, readonly: true });
    expect(ro.writableRoots).toEqual([]);
    expect(codeOf(() => ro.derive({ allowWrite: ['/src'] }))).toBe('path_not_writable');
    expect(codeOf(() => ro.derive({ inherit: true }).resolve('/src/x', 'write'))).toBe('path_not_writable');
    const narrow = sandbox.derive({ allowWrite: ['/src/util'] });
    expect(codeOf(() => narrow.derive({ allowRead: ['/src'] }))).toBe('path_not_in_sandbox');
    expect(codeOf(() => narrow.derive({ allowWrite: ['/src'] }))).toBe('path_not_writable');
    const deeper = narrow.derive({ allowRead: ['/src/util'] });
    expect(deeper.canWrite('/src/util/x')).toBe(false);
    expect(deeper.canRead('/src/util/x')).toBe(true);
    expect(codeOf(() => sandbox.derive({ allowRead: ['/src/../etc'] }))).toBe('invalid_argument');
    expect(codeOf(() => sandbox.derive({ allowRead: ['/elsewhere'] }))).toBe('path_not_in_sandbox');
  });
});
