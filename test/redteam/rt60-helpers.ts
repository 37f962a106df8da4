import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

export function mkdir(): string {
  return mkdtempSync(join(os.tmpdir(), 'rt60-'));
}
export function rm(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}
export function toolset(dir: string) {
  return new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
}
export function put(dir: string, name: string, content: string) {
  writeFileSync(join(dir, name), content);
}
export function get(dir: string, name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

export interface Anchor {
  line: number;
  hash: string;
  text: string;
}
export function parseAnchors(content: string): Anchor[] {
  return content.split('\n').map((l) => {
    const m = /^(\d+)#([0-9a-f]+)\|(.*)$/s.exec(l);
    if (!m) throw new Error(`bad line ${JSON.stringify(l.slice(0, 80))}`);
    return { line: Number(m[1]), hash: m[2]!, text: m[3]! };
  });
}

/** Every page of a hashed read, concatenated. */
export async function readAll(ts: FileSystemToolset, path: string): Promise<Anchor[]> {
  const out: Anchor[] = [];
  let offset: number | null = 1;
  while (offset !== null) {
    const r: any = await ts.callTool('read_file', { path, hashes: true, offset });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
    out.push(...parseAnchors(r.data.content));
    offset = r.data.next_offset;
  }
  return out;
}

/** Small deterministic RNG (mulberry32). */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
  };
}

const GENERIC = [
  '}',
  '',
  '  }',
  '    return;',
  '  return;',
  '    }',
  '  } else {',
  '  return null;',
  '    i++;',
  '// ---',
];

/**
 * Real-looking source: functions with bodies, lots of `}` / blank / `return;`,
 * and duplicated blocks (copies of earlier stretches). `repeat` in [0,1]: share of generic lines.
 */
export function sourceFile(n: number, seed: number, repeat = 0.35, dupBlocks = 0.02): string[] {
  const r = rng(seed);
  const out: string[] = [];
  let fn = 0;
  while (out.length < n) {
    if (out.length > 20 && r.next() < dupBlocks) {
      const len = 3 + r.int(10);
      const from = r.int(out.length - len);
      out.push(...out.slice(from, from + len));
      continue;
    }
    out.push(`function f${seed % 1000}_${fn++}(a, b) {`);
    const body = 2 + r.int(12);
    for (let k = 0; k < body; k++) {
      if (r.next() < repeat) out.push(r.pick(GENERIC));
      else out.push(`  const v${r.int(1e6)} = call${r.int(1e4)}(a, b);`);
    }
    out.push('}');
    out.push('');
  }
  return out.slice(0, n);
}

/** Trailing-whitespace-insensitive line keys (as line hashes see them). */
function keys(a: string[], b: string[]): { A: Int32Array; B: Int32Array } {
  const ids = new Map<string, number>();
  const id = (s: string) => {
    const k = s.trimEnd();
    let v = ids.get(k);
    if (v === undefined) {
      v = ids.size;
      ids.set(k, v);
    }
    return v;
  };
  return { A: Int32Array.from(a, id), B: Int32Array.from(b, id) };
}

/**
 * Every place line i of `a` takes in some longest common subsequence of a and b
 * (-1: some LCS leaves it unmatched). Banded DP: `maxD` must bound the number of
 * inserted + deleted lines of a shortest edit (every optimal path lies in the band).
 */
export function lcsPlaces(a: string[], b: string[], i: number, maxD: number): number[] {
  return lcsPlacesMany(a, b, [i], maxD)[0]!;
}
export function lcsPlacesMany(a: string[], b: string[], targets: number[], maxD: number): number[][] {
  const { A, B } = keys(a, b);
  const n = A.length;
  const m = B.length;
  const D = Math.max(maxD, Math.abs(n - m));
  const W = 2 * D + 1;
  const NEG = -1e9;
  // F[x][y] for y in [x-D, x+D]: LCS of A[0,x) B[0,y). index x*W + (y - x + D)
  const F = new Int32Array((n + 1) * W).fill(NEG);
  const G = new Int32Array((n + 1) * W).fill(NEG); // LCS of A[x,n) B[y,m)
  const at = (T: Int32Array, x: number, y: number) => {
    if (x < 0 || x > n || y < 0 || y > m) return NEG;
    const k = y - x + D;
    if (k < 0 || k >= W) return NEG;
    return T[x * W + k]!;
  };
  for (let x = 0; x <= n; x++) {
    for (let y = Math.max(0, x - D); y <= Math.min(m, x + D); y++) {
      let v: number;
      if (x === 0 || y === 0) v = 0;
      else {
        v = Math.max(at(F, x - 1, y), at(F, x, y - 1));
        if (A[x - 1] === B[y - 1]) v = Math.max(v, at(F, x - 1, y - 1) + 1);
      }
      F[x * W + (y - x + D)] = v;
    }
  }
  for (let x = n; x >= 0; x--) {
    for (let y = Math.min(m, x + D); y >= Math.max(0, x - D); y--) {
      let v: number;
      if (x === n || y === m) v = 0;
      else {
        v = Math.max(at(G, x + 1, y), at(G, x, y + 1));
        if (A[x] === B[y]) v = Math.max(v, at(G, x + 1, y + 1) + 1);
      }
      G[x * W + (y - x + D)] = v;
    }
  }
  const total = at(F, n, m);
  if (n + m - 2 * total > D) throw new Error(`band too narrow: D=${n + m - 2 * total} > ${D}`);
  return targets.map((i) => {
    const res: number[] = [];
    for (let y = Math.max(0, i - D); y <= Math.min(m - 1, i + D); y++)
      if (A[i] === B[y] && at(F, i, y) + 1 + at(G, i + 1, y + 1) === total) res.push(y);
    for (let y = Math.max(0, i - D); y <= Math.min(m, i + D); y++)
      if (at(F, i, y) + at(G, i + 1, y) === total) {
        res.push(-1);
        break;
      }
    return res;
  });
}

/** Lines of `after` that differ from `before` (same length). */
export function changedLines(before: string[], after: string[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < before.length; k++) if (before[k] !== after[k]) out.push(k);
  return out;
}
