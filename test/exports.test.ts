import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types (also run by hand to count exports)
import { ENTRY_POINTS, entryExports } from '../scripts/entry-exports.mjs';

/**
 * Every name a package entry point exports, checked in: adding or removing a
 * public name is a choice made in this list (update it with
 * `node scripts/entry-exports.mjs --json > test/exports.snapshot.json`).
 */
describe('package entry points', () => {
  it('export exactly the chosen names', () => {
    const expected = JSON.parse(fs.readFileSync(new URL('./exports.snapshot.json', import.meta.url), 'utf8'));
    expect(entryExports()).toEqual(expected);
  });

  it('cover every entry of package.json "exports" (but package.json itself)', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    const names = Object.keys(pkg.exports)
      .filter((k) => k !== './package.json')
      .map((k) => (k === '.' ? 'sandbox-approval' : `sandbox-approval/${k.slice(2)}`));
    expect(Object.keys(ENTRY_POINTS).sort()).toEqual(names.sort());
  });

  it('never export internals: locks, atomic writes, binding records, or names that shadow node:fs', () => {
    const all = Object.values(entryExports() as Record<string, string[]>).flat();
    for (const internal of [
      'withFileLock',
      'writeFileAtomic',
      'DirHandle',
      'createBinding',
      'canonicalJson',
      'readFile',
      'writeFile',
    ])
      expect(all).not.toContain(internal);
  });
});
