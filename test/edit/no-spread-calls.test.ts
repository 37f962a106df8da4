import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Spreading an array into call arguments puts every element on the stack: past
 * ~125k elements V8 throws "Maximum call stack size exceeded". Calls that take a
 * list of items (push, unshift, splice, Math.max/min, String.fromCharCode, apply)
 * must get a loop or an array instead, whatever the array's size looks like today.
 */
const SPREAD_SENSITIVE = new Set([
  'push',
  'unshift',
  'splice',
  'max',
  'min',
  'fromCharCode',
  'fromCodePoint',
]);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(full));
    else if (/\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** Every call `x.push(...y)` (or another listed method) in a source text, as "line: text". */
function spreadCalls(fileName: string, source: string): string[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      SPREAD_SENSITIVE.has(node.expression.name.text) &&
      node.arguments.some(ts.isSpreadElement)
    ) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      found.push(`${fileName}:${line + 1}: ${node.getText(sf).slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no spread of arrays into push/splice/Math.* calls', () => {
  it('finds such calls (the checker itself works)', () => {
    const hits = spreadCalls(
      'x.ts',
      'a.push(...b);\nMath.max(...xs);\nlist.splice(0, 1,\n  ...items);\na.push(b);\nf(...xs);\n',
    );
    expect(hits.map((h) => h.split(':')[1])).toEqual(['1', '2', '3']);
  });

  it('src/ and adapters/ have none', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const hits = ['src', 'adapters']
      .flatMap((d) => filesUnder(path.join(root, d)))
      .flatMap((f) => spreadCalls(path.relative(root, f), fs.readFileSync(f, 'utf8')));
    expect(hits).toEqual([]);
  });
});
