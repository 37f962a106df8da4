import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/contract/errors.js';
import { isTempFileName, writeFileAtomic } from '../../src/fs/atomic-write.js';
import type { EntryBinding } from '../../src/fs/entry-binding.js';
import { tempDir } from '../helpers/temp-project.js';

// writeFileAtomic with a binding: the held parent directory and the entry found in it
// right before the rename must be the approved ones, whatever the path names now.

const devIno = (p: string) => {
  const s = fs.lstatSync(p, { bigint: true });
  return `${s.dev}:${s.ino}`;
};

function setup() {
  const root = fs.realpathSync(tempDir({ 'd/a.txt': 'A\n', 'o/a.txt': 'B\n', 'd/b.txt': 'A\n' }));
  const at = (rel: string) => path.join(root, rel);
  return { root, at };
}

async function attempt(root: string, target: string, bound: EntryBinding) {
  try {
    await writeFileAtomic(target, root, 'NEW\n', { displayPath: '/d/a.txt', bound });
    return 'ok';
  } catch (error) {
    return error instanceof SandboxError ? error.code : String(error);
  }
}

describe('writeFileAtomic bound to an approved entry', () => {
  it('writes when the held parent and the entry are the approved ones, refuses any other combination (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('d', 'o', 'unknown'),
        fc.constantFrom('d/a.txt', 'd/b.txt', 'o/a.txt', 'missing', 'unknown'),
        fc.boolean(),
        async (parentOf, entryOf, keepBirth) => {
          const { root, at } = setup();
          const before = Object.fromEntries(
            ['d/a.txt', 'd/b.txt', 'o/a.txt'].map((f) => [f, fs.readFileSync(at(f), 'utf8')]),
          );
          const born = String(fs.lstatSync(at('d/a.txt'), { bigint: true }).birthtimeNs);
          const bound: EntryBinding = {
            parent: parentOf === 'unknown' ? undefined : devIno(at(parentOf)),
            entry: entryOf === 'missing' ? null : entryOf === 'unknown' ? '0:0' : devIno(at(entryOf)),
            ...(keepBirth && entryOf === 'd/a.txt' ? { born } : {}),
            path: '/d/a.txt',
          };
          const out = await attempt(root, at('d/a.txt'), bound);
          const right = parentOf !== 'o' && entryOf === 'd/a.txt';
          expect(out).toBe(right ? 'ok' : 'stale_approval');
          const after = Object.fromEntries(
            ['d/a.txt', 'd/b.txt', 'o/a.txt'].map((f) => [f, fs.readFileSync(at(f), 'utf8')]),
          );
          expect(after).toEqual(right ? { ...before, 'd/a.txt': 'NEW\n' } : before);
          expect(fs.readdirSync(at('d')).filter(isTempFileName)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a directory exchanged after approval is refused: the held directory is not the approved one', async () => {
    const { root, at } = setup();
    const bound: EntryBinding = { parent: devIno(at('d')), entry: devIno(at('d/a.txt')), path: '/d/a.txt' };
    fs.renameSync(at('d'), at('x'));
    fs.renameSync(at('o'), at('d'));
    fs.renameSync(at('x'), at('o'));
    expect(await attempt(root, at('d/a.txt'), bound)).toBe('stale_approval');
    expect(fs.readFileSync(at('d/a.txt'), 'utf8')).toBe('B\n');
    expect(fs.readFileSync(at('o/a.txt'), 'utf8')).toBe('A\n');
  });

  it('an approved create never replaces a file that appeared meanwhile', async () => {
    const { root, at } = setup();
    const bound: EntryBinding = { parent: devIno(at('d')), entry: null, path: '/d/new.txt' };
    fs.writeFileSync(at('d/new.txt'), 'theirs\n');
    expect(await attempt(root, at('d/new.txt'), bound)).toBe('stale_approval');
    expect(fs.readFileSync(at('d/new.txt'), 'utf8')).toBe('theirs\n');
    fs.rmSync(at('d/new.txt'));
    expect(await attempt(root, at('d/new.txt'), bound)).toBe('ok');
    expect(fs.readFileSync(at('d/new.txt'), 'utf8')).toBe('NEW\n');
  });

  it('an inode number reused by a new file is another file (birth time)', async () => {
    const { root, at } = setup();
    const stat = fs.lstatSync(at('d/a.txt'), { bigint: true });
    const bound: EntryBinding = {
      parent: devIno(at('d')),
      entry: `${stat.dev}:${stat.ino}`,
      born: String(stat.birthtimeNs - 1n),
      path: '/d/a.txt',
    };
    expect(await attempt(root, at('d/a.txt'), bound)).toBe('stale_approval');
    expect(fs.readFileSync(at('d/a.txt'), 'utf8')).toBe('A\n');
  });
});
