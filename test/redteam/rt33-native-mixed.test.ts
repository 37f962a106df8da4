// rt33: native approval (AI SDK) batches of 3-4 approved calls on one file, mixing edit_lines,
// patch_file and edit_file, all shown against the same starting state. Each must land exactly as
// shown (rebased onto the earlier ones) or be refused with stale_approval: the file ends as some
// in-order subset of the calls applied at their own lines, never anything else.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import {
  anchorsOf,
  applyLineOps,
  cleanup,
  type LineOp,
  type NativeCall,
  scriptOf,
  type Tagged,
  tempDir,
  toolLineOp,
  unifiedOf,
} from './rt32-harness.js';
import { nativeBatchWith, sha } from './rt33-util.js';

afterEach(cleanup);
const txt = (t: Tagged[]) => (t.length ? `${t.map((x) => x.text).join('\n')}\n` : '');

/** Ops (original coordinates) applied after an earlier true result; undefined if an op's line is gone. */
function compose(t: Tagged[], ops: LineOp[]): Tagged[] | undefined {
  const present = new Set(t.map((x) => x.orig));
  for (const o of ops) if (!present.has(o.line)) return undefined;
  const by = new Map(ops.map((o) => [o.line, o]));
  const out: Tagged[] = [];
  for (const x of t) {
    const o = x.orig >= 0 ? by.get(x.orig) : undefined;
    if (o?.kind === 'insert_before') out.push({ orig: -1, text: o.content });
    if (o?.kind === 'replace') out.push({ orig: -1, text: o.content });
    else if (o?.kind !== 'delete') out.push(x);
    if (o?.kind === 'insert_after') out.push({ orig: -1, text: o.content });
  }
  return out;
}

type Tool = 'lines' | 'patch' | 'edit';
interface Planned {
  tool: Tool;
  ops: LineOp[];
  ctx: number;
}

function callOf(p: Planned, k: number, lines: string[], a: string[], before: string): NativeCall {
  if (p.tool === 'lines')
    return {
      name: 'edit_lines',
      input: { path: '/f.txt', operations: p.ops.map((o) => toolLineOp(o, a[o.line]!)), sanity: 'off' },
    };
  if (p.tool === 'patch')
    return {
      name: 'patch_file',
      input: {
        path: '/f.txt',
        base_sha256: sha(before),
        unified_diff: unifiedOf(scriptOf(lines, p.ops), p.ctx),
      },
    };
  // edit_file on the one marker line of this call
  const o = p.ops[0]!;
  const m = lines[o.line]!;
  const neu =
    o.kind === 'replace'
      ? `${o.content}\n`
      : o.kind === 'delete'
        ? ''
        : o.kind === 'insert_after'
          ? `${m}\n${o.content}\n`
          : `${o.content}\n${m}\n`;
  void k;
  return { name: 'edit_file', input: { path: '/f.txt', old_string: `${m}\n`, new_string: neu } };
}

const opArb = fc.record({
  line: fc.nat(),
  kind: fc.constantFrom<LineOp['kind']>('replace', 'insert_after', 'insert_before', 'delete'),
  content: fc.constantFrom('}', '', 'x', 'N'),
});
const callArb = fc.record({
  tool: fc.constantFrom<Tool>('lines', 'patch', 'edit'),
  ops: fc.array(opArb, { minLength: 1, maxLength: 2 }),
  ctx: fc.integer({ min: 1, max: 3 }),
});

async function run(
  base: string[],
  rawCalls: any[],
  decide = (_r: any, _i: number) => ({ approved: true }) as any,
) {
  const lines = base.slice();
  const n = lines.length;
  const used = new Set<number>();
  const plans: Planned[] = [];
  rawCalls.forEach((c, k) => {
    const ops: LineOp[] = [];
    for (const o of c.ops) {
      const line = o.line % n;
      if (used.has(line)) continue;
      used.add(line);
      ops.push({ ...o, line } as LineOp);
      if (c.tool === 'edit') break;
    }
    if (ops.length === 0) return;
    // edit_file needs a unique line to match: mark it (and replace content stays distinct)
    if (c.tool === 'edit') {
      lines[ops[0]!.line] = `M${k}`;
      if (ops[0]!.kind === 'replace') ops[0] = { ...ops[0]!, content: `M${k}x` } as LineOp;
    }
    plans.push({ tool: c.tool, ops, ctx: c.ctx });
  });
  const before = `${lines.join('\n')}\n`;
  const dir = tempDir({ 'f.txt': before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const rd: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true, limit: 2000 });
  const a = anchorsOf(rd.data.content);
  const calls = plans.map((p, k) => callOf(p, k, lines, a, before));
  const res = await nativeBatchWith(dir, toolset, calls, decide);
  // Every in-order subset of the calls, each applied at its own lines.
  const allowed = new Set<string>();
  for (let mask = 0; mask < 1 << plans.length; mask++) {
    let t: Tagged[] | undefined = lines.map((text, i) => ({ orig: i, text }));
    plans.forEach((p, k) => {
      if (t && mask & (1 << k)) t = compose(t, p.ops);
    });
    if (t) allowed.add(txt(t));
  }
  return { ...res, lines, plans, calls, allowed, before };
}

const stats = { runs: 0, changed: 0, multi: 0, stale: 0 };
describe('rt33 native: 3-4 calls mixing edit_lines, patch_file, edit_file on one file', () => {
  it('property: the file ends as an in-order subset of the calls landed where shown', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '}', '', 'x'), { minLength: 20, maxLength: 80 }),
        fc.array(callArb, { minLength: 3, maxLength: 4 }),
        async (base, rawCalls) => {
          const r = await run(base, rawCalls);
          cleanup();
          stats.runs++;
          if (r.after !== r.before) stats.changed++;
          const landed = [...r.results.values()].filter((o) => o.type === 'json').length;
          if (landed >= 2) stats.multi++;
          if (JSON.stringify([...r.results.values()]).includes('stale_approval')) stats.stale++;
          expect(
            [...r.allowed],
            JSON.stringify({ lines: r.lines, plans: r.plans, after: r.after }),
          ).toContain(r.after);
        },
      ),
      { numRuns: 120 },
    );
    console.log('rt33 native stats', stats);
    expect(stats.multi).toBeGreaterThan(20);
  }, 600_000);

  it('three edit_lines calls on neighbouring lines of a run of braces: each lands or is refused', async () => {
    const base = Array(12).fill('}');
    const r = await run(base, [
      { tool: 'lines', ops: [{ line: 4, kind: 'insert_after', content: '}' }], ctx: 1 },
      { tool: 'lines', ops: [{ line: 5, kind: 'replace', content: 'x' }], ctx: 1 },
      { tool: 'lines', ops: [{ line: 6, kind: 'delete', content: '' }], ctx: 1 },
    ]);
    expect([...r.allowed]).toContain(r.after);
  });
});
