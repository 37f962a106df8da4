import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/contract/errors.js';
import { isInsideRoot } from '../../src/sandbox/real-path.js';
import { attackFixture } from './attack-fixture.js';

/** Real path of a path, or of its deepest existing ancestor with the rest appended (what a write would touch). */
function realOrAncestor(p: string): string {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...rest);
    } catch {
      rest.unshift(path.basename(current));
      const parent = path.dirname(current);
      if (parent === current) return p;
      current = parent;
    }
  }
}

const RUNS = 100_000;

describe('resolve() property', () => {
  let f: ReturnType<typeof attackFixture>;
  beforeAll(() => {
    f = attackFixture();
    fs.mkdirSync(path.join(f.allowed, 'dir/deeper'), { recursive: true });
    fs.symlinkSync('../..', path.join(f.allowed, 'dir/up2'));
    fs.symlinkSync('deeper', path.join(f.allowed, 'dir/down'));
    fs.writeFileSync(path.join(f.allowed, 'café'), 'unicode');
  });
  afterAll(() => fs.rmSync(f.root, { recursive: true, force: true }));

  it(`either refuses or lands inside a mount, for ${RUNS.toLocaleString('en')} generated paths`, () => {
    const segment = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '..',
          '.',
          '',
          'sub',
          'a.txt',
          'dir',
          'deeper',
          'up2',
          'down',
          'new.txt',
          'x',
        ),
      },
      fc.constantFrom('data', 'other'),
      fc.constantFrom(
        'link_file_out',
        'link_dir_out',
        'dangling_out',
        'dangling_deep_out',
        'chain1',
        'loop_a',
        'self',
      ),
      fc.constantFrom(
        'link_evil',
        'link_back_out',
        'link_inside',
        'link_sub_inside',
        'devzero',
        'fifo',
        'outside',
        'allowed_evil',
      ),
      fc.constantFrom('café', 'cafe\u0301', '．．', '\u2024\u2024', '%2e%2e', '~', 'secret.txt', 'new.txt'),
      fc.string({ maxLength: 6 }),
      fc.string({ minLength: 250, maxLength: 260 }),
    );
    const candidate = fc
      .tuple(
        fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom('/data/', 'data/', '/data/dir/', '/data/sub/') },
          { weight: 1, arbitrary: fc.constantFrom('/', '', '/other/', f.root, `${f.root}/`) },
        ),
        fc.array(segment, { maxLength: 8 }),
      )
      .map(([prefix, segs]) => prefix + segs.join('/'));
    const op = fc.constantFrom('read' as const, 'write' as const, 'list' as const);
    const roots = f.sandbox.mounts.map((m) => m.realRoot);
    let refused = 0;
    let resolved = 0;
    let outside = 0;
    fc.assert(
      fc.property(candidate, op, (p, access) => {
        try {
          const r = f.sandbox.resolve(p, access);
          resolved++;
          const real = realOrAncestor(r.hostPath);
          const inside =
            roots.some((root) => isInsideRoot(root, real)) && isInsideRoot(r.mount.realRoot, r.hostPath);
          if (!inside) outside++;
          return inside;
        } catch (e) {
          if (!(e instanceof SandboxError)) throw e;
          refused++;
          return !e.message.includes(f.root);
        }
      }),
      { numRuns: RUNS, seed: 20261122 },
    );
    console.log(
      `resolve() property: ${RUNS} generated paths (${resolved} resolved inside a mount, ${refused} refused, ${outside} outside)`,
    );
    expect(resolved + refused).toBe(RUNS);
    expect(resolved).toBeGreaterThan(RUNS / 10);
  });
});
