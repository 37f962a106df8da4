import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../src/tools/glob-pattern.js';

// The matcher takes * ? [..] {a,b} ** without backtracking; on that syntax it must agree with
// picomatch (dot: true), the regex-compiled reference, wherever picomatch answers quickly.
const nameChar = fc.constantFrom('a', 'b', 'c', '.', '-', '_', 'é', '1');
// Entries are never named . or .. (readdir does not list them).
const name = fc
  .array(nameChar, { minLength: 1, maxLength: 6 })
  .map((c) => c.join(''))
  .filter((n) => n !== '.' && n !== '..');
const path = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const atom = fc.oneof(
  nameChar,
  fc.constant('*'),
  fc.constant('?'),
  // Not [!a]: picomatch reads it as the set {!, a} (or the literal text), the shell as "not a", as here.
  fc.constantFrom('[ab]', '[^b]', '[a-c]', '[.]'),
);
const segmentGlob = fc.array(atom, { minLength: 1, maxLength: 5 }).map((a) => a.join(''));
// Brace alternatives without stars: picomatch lets a "**" made inside braces cross "/".
const starless = segmentGlob.map((g) => g.replaceAll('*', '?'));
const withBraces = fc.oneof(
  segmentGlob,
  fc.tuple(segmentGlob, starless, starless).map(([x, y, z]) => `${x}{${y},${z}}`),
);
const pattern = fc
  .array(fc.oneof({ weight: 4, arbitrary: withBraces }, { weight: 1, arbitrary: fc.constant('**') }), {
    minLength: 1,
    maxLength: 4,
  })
  .map((s) => s.join('/'))
  // Not "x*/**": picomatch matches "src/**" against "src" but not "*/**" against "a" (here both
  // match); not "**{a,b}": picomatch lets a star run into braces cross "/" (here it does not).
  .filter((p) => !/\/\*\*$/.test(p) && !p.includes('*{'))
  // "." and ".." segments: ".." is refused, and a "." segment names nothing listed.
  .filter((p) => !p.split('/').includes('.') && !p.includes('..'))
  // Not "***": picomatch reads it as one star alone and as a globstar after "**/"; not ".*":
  // picomatch's star there takes at least one character ("*.*" against "a."), the shell's none.
  .filter((p) => !p.includes('***') && !p.includes('.*'));

describe('list_files glob matcher', () => {
  it('agrees with picomatch on * ? [..] {a,b} **', () => {
    fc.assert(
      fc.property(pattern, fc.array(path, { minLength: 1, maxLength: 8 }), (p, paths) => {
        const ours = compileGlob(p);
        const reference = picomatch(p, { dot: true });
        for (const candidate of paths)
          expect([p, candidate, ours(candidate)]).toEqual([p, candidate, reference(candidate)]);
      }),
      { numRuns: 2000 },
    );
  });

  it('matches stars separated by letters against a long name in bounded time', () => {
    const long = 'a'.repeat(255);
    const start = performance.now();
    expect(compileGlob(`${'*a'.repeat(40)}*c`)(long)).toBe(false);
    expect(compileGlob(`${'*a'.repeat(40)}*`)(long)).toBe(true);
    // Bounded by pattern × name (picomatch took seconds for 4 such stars): not a timing assertion,
    // a generous ceiling that only a backtracking matcher reaches.
    expect(performance.now() - start).toBeLessThan(5_000);
  });

  it('refuses what it does not take, clearly', () => {
    for (const bad of ['@(a|b)', '!(x)', '+(a)', 'x*(a)', '[[:alpha:]]', '{1..3}', 'a'.repeat(2000)]) {
      expect(() => compileGlob(bad), bad).toThrow(/Invalid pattern/);
    }
  });

  it('reads [!a] as the shell does: one character that is not a', () => {
    const m = compileGlob('x[!a]');
    expect([m('xa'), m('xb'), m('x!')]).toEqual([false, true, true]);
  });

  it('matches "dir/**" against the directory itself and everything below it', () => {
    for (const p of ['src/**', 's*/**']) {
      const m = compileGlob(p);
      expect([m('src'), m('src/a'), m('src/a/b'), m('other')]).toEqual([true, true, true, false]);
    }
  });

  it('takes a leading "./" as the listed directory', () => {
    const m = compileGlob('./src/*.ts');
    expect([m('src/a.ts'), m('a.ts')]).toEqual([true, false]);
  });

  it('lets a star take nothing, as the shell does', () => {
    expect([compileGlob('*.*')('a.'), compileGlob('a*')('a'), compileGlob('*')('')]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('negates with a leading "!"', () => {
    const m = compileGlob('!**/*.ts');
    expect([m('a.ts'), m('src/b.ts'), m('a.md')]).toEqual([false, false, true]);
  });
});
