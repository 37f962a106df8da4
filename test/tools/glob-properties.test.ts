import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/tools/glob-pattern.js';
import { refMatch } from '../redteam/rt62-refglob.js';

// Properties of the list_files glob beyond picomatch's syntax (glob-matcher.test.ts): characters
// are code points, as in a shell (rt62-refglob.ts is a bash-like reference), and the walk's pruning
// never skips a directory holding a match.

const astral = ['😀', '🎉', '\u{10FFFF}'];
const nameChar = fc.constantFrom('a', 'b', 'é', '\uFFFD', '-', '.', ...astral);
const name = fc
  .array(nameChar, { minLength: 1, maxLength: 8 })
  .map((c) => c.join(''))
  .filter((n) => n !== '.' && n !== '..');
const atom = fc.constantFrom(
  'a',
  '?',
  '*',
  '😀',
  '[😀]',
  '[!a]',
  '[^😀]',
  '[a-😀]',
  '[😀-🎉]',
  '[🎉-😀]',
  '[a😀-]',
  '[é-\uFFFD]',
  '[',
);
// Up to 60 atoms: patterns past 32 positions take the several-word walk.
const segment = fc.array(atom, { minLength: 1, maxLength: 60 }).map((a) => a.join(''));

describe('list_files glob properties', () => {
  it('matches characters as code points: `?`, sets and ranges over astral characters, as bash does', () => {
    fc.assert(
      fc.property(segment, fc.array(name, { minLength: 1, maxLength: 8 }), (p, names) => {
        const ours = compileGlob(p);
        for (const n of names) expect([p, n, ours(n)]).toEqual([p, n, refMatch(p, n)]);
        const deep = compileGlob(`**/${p}`);
        for (const n of names) expect([p, n, deep(`x/${n}`)]).toEqual([p, n, refMatch(`**/${p}`, `x/${n}`)]);
      }),
      { numRuns: 1500 },
    );
  });

  it('counts the length limit in characters: 1,024 emoji are allowed, 1,025 refused', () => {
    expect(compileGlob('😀'.repeat(1024))('😀'.repeat(1024))).toBe(true);
    expect(() => compileGlob('😀'.repeat(1025))).toThrow(/longer than 1,024 characters/);
  });

  const token = fc.constantFrom('a', 'b', '*', '?', '**', '[ab]', '{a,b}', '{a,b/a}', '{b,**}', '.', '');
  const pattern = fc
    .array(token, { minLength: 1, maxLength: 5 })
    .chain((ts) => fc.tuple(fc.constant(ts.join('/')), fc.boolean()))
    .map(([p, slash]) => (slash ? `${p}/` : p))
    .filter((p) => {
      try {
        compileGlob(p);
        return !p.startsWith('/');
      } catch {
        return false;
      }
    });
  const path = fc.array(fc.constantFrom('a', 'b', 'ab', 'c'), { minLength: 1, maxLength: 6 });

  it('prunes soundly: every directory above a matching path may hold a match', () => {
    fc.assert(
      fc.property(pattern, path, fc.boolean(), (p, names, isDir) => {
        const m = compileGlob(p);
        if (!m(names.join('/'), isDir)) return;
        for (let k = 1; k < names.length; k++)
          expect([p, names.slice(0, k).join('/'), m.mayMatchBelow(names.slice(0, k).join('/'))]).toEqual([
            p,
            names.slice(0, k).join('/'),
            true,
          ]);
      }),
      { numRuns: 5000 },
    );
  });

  it('prunes what a pattern cannot reach, and nothing for a negated pattern', () => {
    const top = compileGlob('*');
    expect([top.mayMatchBelow('a'), compileGlob('d00/f*').mayMatchBelow('d01')]).toEqual([false, false]);
    expect([compileGlob('d00/f*').mayMatchBelow('d00'), compileGlob('a/**').mayMatchBelow('a/b/c')]).toEqual([
      true,
      true,
    ]);
    expect([compileGlob('{x,d*}/f').mayMatchBelow('d1'), compileGlob('!*').mayMatchBelow('a')]).toEqual([
      true,
      true,
    ]);
  });
});
