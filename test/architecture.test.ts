import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers import downward only. These are the edges that would make the
 * layering in docs/architecture.md untrue: the tools and the approval layer
 * meet only through src/contract (and the Toolset interface approval owns),
 * the edit algorithms are pure text, and the contract depends on nothing.
 */
const FORBIDDEN: Record<string, string[]> = {
  tools: ['approval'],
  approval: ['tools'],
  edit: ['sandbox', 'tools', 'approval', 'fs'],
  contract: ['*'],
};

const root = path.resolve(import.meta.dirname, '..');
const srcDir = path.join(root, 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** Every relative module a file imports or re-exports (static, dynamic, type-only alike). */
function importsOf(file: string, text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles
    .map((f) => f.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.resolve(path.dirname(file), s));
}

/** The top folder of src/ a path lies in, or undefined outside src/ (packages). */
function layerOf(p: string): string | undefined {
  const rel = path.relative(srcDir, p);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const [first, ...rest] = rel.split(path.sep);
  return rest.length === 0 ? '(root)' : first;
}

function violations(files: { file: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const { file, text } of files) {
    const from = layerOf(file);
    const banned = from ? FORBIDDEN[from] : undefined;
    if (!banned) continue;
    for (const target of importsOf(file, text)) {
      const to = layerOf(target);
      if (to === undefined || to === from) continue;
      if (banned.includes('*') || banned.includes(to))
        out.push(`${path.relative(root, file)} (${from}) imports ${path.relative(root, target)} (${to})`);
    }
  }
  return out;
}

describe('architecture: layers import downward only', () => {
  const files = sourceFiles(srcDir).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));

  it('finds the source folders it guards', () => {
    const layers = new Set(files.map((f) => layerOf(f.file)));
    for (const layer of Object.keys(FORBIDDEN)) expect(layers).toContain(layer);
  });

  it('has no upward or sideways import between tools, approval, edit and contract', () => {
    expect(violations(files)).toEqual([]);
  });

  it('reports each forbidden edge, whatever the import form', () => {
    const at = (layer: string, name: string) => path.join(srcDir, layer, name);
    const bad = [
      { file: at('tools', 'x.ts'), text: "import type { A } from '../approval/types.js';" },
      { file: at('approval', 'x.ts'), text: "export { B } from '../tools/b.js';" },
      { file: at('approval/deferred', 'x.ts'), text: "const m = await import('../../tools/c.js');" },
      { file: at('edit', 'x.ts'), text: "import { D } from '../sandbox/errors.js';\nimport '../fs/e.js';" },
      { file: at('contract', 'x.ts'), text: "import type { F } from '../sandbox/target.js';" },
    ];
    expect(violations(bad)).toHaveLength(6);
    const fine = [
      {
        file: at('tools', 'y.ts'),
        text: "import type { A } from '../contract/a.js';\nimport { z } from 'zod';",
      },
      {
        file: at('edit', 'y.ts'),
        text: "import { B } from './b.js';\nimport type { C } from '../contract/c.js';",
      },
      { file: at('terminal', 'y.ts'), text: "import { D } from '../approval/d.js';" },
    ];
    expect(violations(fine)).toEqual([]);
  });
});
