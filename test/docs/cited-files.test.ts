import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Docs ship in the package and must stand alone: every repository file they cite exists, and none
// points outside the repository.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const docs = ['README.md', 'CHANGELOG.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter(
  (f) => f.endsWith('.md'),
);
const repoPath = /^(src|adapters|test|bench|examples|scripts|docs|bin|types)\/[\w./<>-]*$/;

function citedPaths(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const inCode = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] ?? '');
  const linked = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => join(dirname(file), target));
  return [...inCode.filter((p) => repoPath.test(p) && !p.includes('<')), ...linked];
}

describe('documentation cites only files in the repository', () => {
  it.each(docs)('%s', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared|seeds\//);
    const missing = citedPaths(file).filter((p) => !existsSync(join(root, p.replace(/\/$/, ''))));
    expect(missing).toEqual([]);
  });
});
