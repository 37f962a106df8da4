import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ErrorCode, SandboxError } from '../../src/contract/errors.js';
import { isInsideRoot } from '../../src/sandbox/real-path.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { attackFixture, outsideSnapshot } from './attack-fixture.js';

type Expect = ErrorCode | 'inside';
interface Attack {
  name: string;
  path: (f: ReturnType<typeof attackFixture>) => string;
  /** Expected outcome per operation; one value applies to all. */
  expect: Expect | Partial<Record<'read' | 'write' | 'list', Expect | Expect[]>>;
}

const OUT: Expect = 'path_not_in_sandbox';
const literal = { read: 'not_found', write: 'inside', list: 'not_found' } as const;

const ATTACKS: Attack[] = [
  { name: '.. out of the mount', path: () => '/data/../outside/secret.txt', expect: OUT },
  { name: 'nested .. out', path: () => '/data/sub/../../outside', expect: OUT },
  { name: 'many ..', path: () => '/data/sub/../../../../etc/passwd', expect: OUT },
  { name: '/mount/../other mount', path: () => '/data/../other/o.txt', expect: OUT },
  { name: 'root ..', path: () => '/..', expect: OUT },
  { name: 'root ../../etc', path: () => '/../../etc/passwd', expect: OUT },
  { name: 'absolute /etc/passwd', path: () => '/etc/passwd', expect: OUT },
  { name: 'absolute /proc/self/environ', path: () => '/proc/self/environ', expect: OUT },
  {
    name: 'absolute host path of the outside dir',
    path: (f) => path.join(f.outside, 'secret.txt'),
    expect: OUT,
  },
  { name: 'absolute host path of the mount itself', path: (f) => path.join(f.allowed, 'a.txt'), expect: OUT },
  { name: 'prefix look-alike mount /database', path: () => '/database/x', expect: OUT },
  { name: 'prefix look-alike /data_evil', path: () => '/data_evil/secret.txt', expect: OUT },
  {
    name: 'sibling allowed_evil by host path',
    path: (f) => path.join(f.root, 'allowed_evil/secret.txt'),
    expect: OUT,
  },
  { name: 'symlink to sibling allowed_evil', path: () => '/data/link_evil/secret.txt', expect: OUT },
  { name: 'symlinked file to outside', path: () => '/data/link_file_out', expect: OUT },
  { name: 'symlinked dir to outside', path: () => '/data/link_dir_out/secret.txt', expect: OUT },
  { name: 'symlinked parent of a new file', path: () => '/data/link_dir_out/new.txt', expect: OUT },
  { name: 'symlinked dir listing', path: () => '/data/link_dir_out', expect: OUT },
  { name: 'dangling symlink to outside', path: () => '/data/dangling_out', expect: OUT },
  { name: 'dangling symlink to outside, deep', path: () => '/data/dangling_deep_out', expect: OUT },
  { name: 'symlink chain to outside', path: () => '/data/chain1', expect: OUT },
  { name: 'symlink with .. inside its target', path: () => '/data/link_back_out/secret.txt', expect: OUT },
  { name: 'symlink loop', path: () => '/data/loop_a', expect: 'invalid_argument' },
  { name: 'self symlink', path: () => '/data/self', expect: 'invalid_argument' },
  { name: 'NUL byte', path: () => '/data/a.txt\0.png', expect: 'invalid_argument' },
  { name: 'NUL then ..', path: () => '/data\0/../../etc/passwd', expect: 'invalid_argument' },
  { name: 'backslash ..', path: () => '/data/..\\..\\outside\\secret.txt', expect: 'invalid_argument' },
  { name: 'relative backslash ..', path: () => '..\\outside', expect: 'invalid_argument' },
  {
    name: '%2e%2e (never URL-decoded)',
    path: () => '/data/%2e%2e/%2e%2e/outside/secret.txt',
    expect: literal,
  },
  { name: '..%2f', path: () => '/data/..%2f..%2foutside', expect: literal },
  { name: 'fullwidth ．．／', path: () => '/data/．．／．．／outside/secret.txt', expect: literal },
  { name: 'one-dot leaders ․․', path: () => '/data/\u2024\u2024/outside', expect: literal },
  { name: 'trailing dot', path: () => '/data/a.txt.', expect: literal },
  { name: 'trailing space', path: () => '/data/a.txt ', expect: literal },
  { name: 'RTL override', path: () => '/data/\u202Etxt.exe', expect: 'invalid_argument' },
  { name: 'zero-width space', path: () => '/data/a\u200B.txt', expect: 'invalid_argument' },
  { name: 'ESC sequence', path: () => '/data/\u001b[2Ka.txt', expect: 'invalid_argument' },
  { name: 'name over 255 bytes', path: () => `/data/${'a'.repeat(256)}`, expect: 'invalid_argument' },
  { name: 'path over 4096 bytes', path: () => `/data/${'abc/'.repeat(1100)}x`, expect: 'invalid_argument' },
  { name: 'mount point case variant', path: () => '/DATA/a.txt', expect: OUT },
  { name: 'mount point case variant 2', path: () => '/Data/a.txt', expect: OUT },
  { name: 'home expansion', path: () => '~/.ssh/id_rsa', expect: OUT },
  { name: 'file URL', path: () => 'file:///etc/passwd', expect: OUT },
  { name: 'empty', path: () => '', expect: 'invalid_argument' },
  { name: 'whitespace only', path: () => '   ', expect: 'invalid_argument' },
  { name: 'FIFO inside the mount', path: () => '/data/fifo', expect: 'not_a_file' },
  { name: 'symlink to /dev/zero', path: () => '/data/devzero', expect: OUT },
  {
    name: 'read-only mount write',
    path: () => '/other/o.txt',
    expect: { read: 'inside', write: 'path_not_writable', list: 'inside' },
  },
  { name: 'inside symlink (control)', path: () => '/data/link_inside', expect: 'inside' },
  { name: 'a file as a directory', path: () => '/data/keep.txt/x', expect: 'not_found' },
];

const OPS = ['read', 'write', 'list'] as const;
let tried = 0;
let escapes = 0;

describe('sandbox attack suite', () => {
  let f: ReturnType<typeof attackFixture>;
  let toolset: FileSystemToolset;
  let hostPrefix: string;
  beforeAll(() => {
    f = attackFixture();
    toolset = new FileSystemToolset(f.sandbox);
    hostPrefix = f.root;
  });

  for (const attack of ATTACKS) {
    it(`${attack.name}`, async () => {
      const before = outsideSnapshot(f.root);
      const p = attack.path(f);
      for (const op of OPS) {
        tried++;
        const expected = typeof attack.expect === 'string' ? attack.expect : attack.expect[op];
        const allowed = ([] as Expect[]).concat(expected ?? []);
        let outcome: Expect;
        try {
          const r = f.sandbox.resolve(p, op);
          if (!isInsideRoot(r.mount.realRoot, r.hostPath)) escapes++;
          expect(isInsideRoot(r.mount.realRoot, r.hostPath)).toBe(true);
          outcome = 'inside';
        } catch (e) {
          if (!(e instanceof SandboxError)) throw e;
          expect(`${e.message} ${e.suggestions.join(' ')} ${JSON.stringify(e.details ?? {})}`).not.toContain(
            hostPrefix,
          );
          outcome = e.code;
        }
        if (op === 'list' && outcome === 'not_a_file' && allowed.includes('inside')) outcome = 'inside';
        expect(allowed, `${op} ${JSON.stringify(p).slice(0, 80)}`).toContain(outcome);
      }
      // The same input through the real tools: nothing outside is read, created or changed.
      const read = await toolset.callTool('read_file', { path: p });
      if (read.ok) expect(JSON.stringify(read.data)).not.toMatch(/SECRET/);
      else expect(read.error.message).not.toContain(hostPrefix);
      for (const [name, args] of [
        ['write_file', { path: p, content: 'PWNED' }],
        ['edit_file', { path: p, old_string: 'SECRET', new_string: 'PWNED' }],
        ['delete_file', { path: p }],
        ['move_file', { source: p, destination: '/data/moved.txt' }],
        ['copy_file', { source: p, destination: '/data/copied.txt' }],
        ['list_files', { path: p }],
      ] as const) {
        tried++;
        const outcome = await toolset.callTool(name, args);
        if (!outcome.ok) expect(outcome.error.message).not.toContain(hostPrefix);
        else expect(JSON.stringify(outcome.data)).not.toMatch(/SECRET/);
      }
      const after = outsideSnapshot(f.root);
      if (JSON.stringify(after) !== JSON.stringify(before)) escapes++;
      expect(after).toEqual(before);
      expect(fs.existsSync(path.join(f.outside, 'created.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(f.outside, 'secret.txt'), 'utf8')).toBe('OUTSIDE SECRET\n');
    });
  }

  it('refuses /dev/zero through a mount of /dev as not_a_file, without blocking', async () => {
    const dev = new Sandbox({ mounts: [{ hostPath: '/dev', mountPoint: '/dev' }] });
    expect(() => dev.resolve('/dev/zero', 'read')).toThrow(expect.objectContaining({ code: 'not_a_file' }));
    const outcome = await new FileSystemToolset(dev).callTool('read_file', { path: '/dev/zero' });
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe('not_a_file');
    const fifo = await toolset.callTool('read_file', { path: '/data/fifo' });
    expect(fifo.ok ? 'ok' : fifo.error.code).toBe('not_a_file');
  });

  afterAll(() => {
    fs.rmSync(f.root, { recursive: true, force: true });
    console.log(
      `sandbox attack suite: ${ATTACKS.length} inputs, ${tried} input × operation attempts, ${escapes} escapes`,
    );
  });
});
