import fs from 'node:fs';
import path from 'node:path';

/**
 * A replay corpus of gold edits taken from real source files shipped in the
 * project's own node_modules: pick a distinctive, indented line, change it and
 * insert a line after it. Deterministic (seeded), so runs are comparable.
 */
export interface GoldEdit {
  id: string;
  /** The file as the model read it (LF, 2-space or 4-space indentation). */
  original: string;
  /** 0-based index of the target line. */
  target: number;
  /** The lines that replace the target line. */
  replacement: string[];
}

const SOURCES = [
  'node_modules/diff/libesm/diff',
  'node_modules/diff/libesm/patch',
  'node_modules/picomatch/lib',
  'node_modules/prompts/lib/elements',
  'node_modules/kleur',
  'node_modules/zod/v4/core',
  'node_modules/fast-check/lib/esm/arbitrary',
];

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of SOURCES) {
    const full = path.join(root, dir);
    if (!fs.existsSync(full)) continue;
    for (const name of fs.readdirSync(full).sort()) {
      if (/\.(m?js)$/.test(name) && !name.endsWith('.min.js')) out.push(path.join(full, name));
    }
  }
  return out;
}

/**
 * A good target: indented, has letters, unique in the file, no tabs/CR/backticks or typographic
 * quotes, not too long. ASCII quotes are welcome: the smart-quote mistake must reach changed lines.
 */
function isGoodTarget(lines: string[], i: number, counts: Map<string, number>): boolean {
  const line = lines[i]!;
  if (!/^ {2,}\S/.test(line) || line.length > 100 || /[\t\r`\u2018\u2019\u201c\u201d]/.test(line))
    return false;
  if (!/[a-zA-Z]{3}/.test(line) || counts.get(line.trim()) !== 1) return false;
  // Neighbours must exist for context.
  return i >= 4 && i < lines.length - 4 && lines.slice(i - 3, i + 4).every((l) => !/[\t\r]/.test(l));
}

export function buildCorpus(root: string, size = 50, seed = 42): GoldEdit[] {
  const random = mulberry32(seed);
  const edits: GoldEdit[] = [];
  const files = sourceFiles(root);
  for (let round = 0; edits.length < size && round < 20; round++) {
    for (const file of files) {
      if (edits.length >= size) break;
      const text = fs.readFileSync(file, 'utf8').replaceAll('\r\n', '\n');
      const lines = text.split('\n');
      if (lines.length < 40 || lines.length > 3_000) continue;
      const counts = new Map<string, number>();
      for (const l of lines) counts.set(l.trim(), (counts.get(l.trim()) ?? 0) + 1);
      const candidates = lines.map((_, i) => i).filter((i) => isGoodTarget(lines, i, counts));
      if (candidates.length === 0) continue;
      const target = candidates[Math.floor(random() * candidates.length)]!;
      const line = lines[target]!;
      const indent = /^\s*/.exec(line)![0];
      const id = `${path.relative(root, file)}:${target + 1}`;
      if (edits.some((e) => e.id === id)) continue;
      edits.push({
        id,
        original: text,
        target,
        replacement: [
          `${line} /* edited ${edits.length} */`,
          `${indent}void ${edits.length}; // inserted by the replay`,
        ],
      });
    }
  }
  return edits;
}
