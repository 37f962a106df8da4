// rt33: edit_lines with adjacent operations (insert_after k + replace k+1, ranges next to inserts,
// delete ranges back to back), among equal lines, LF/CRLF, BOM, final newline or not, big files.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { applyShown, checkAgainstTruth, cleanup, runGated, type Tagged } from './rt32-harness.js';
import { shownTruth } from './rt33-util.js';

afterEach(cleanup);

type Op =
  | { kind: 'replace_line' | 'insert_after' | 'insert_before'; at: number; content: string[] }
  | { kind: 'delete_line'; at: number }
  | { kind: 'replace_range'; at: number; end: number; content: string[] }
  | { kind: 'delete_range'; at: number; end: number };

const rawOp = fc.record({
  gap: fc.integer({ min: 0, max: 3 }), // lines skipped before this op (0 = adjacent)
  kind: fc.constantFrom(
    'replace_line',
    'insert_after',
    'insert_before',
    'delete_line',
    'replace_range',
    'delete_range',
  ),
  len: fc.integer({ min: 1, max: 2 }), // extra lines of a range
  // (a trailing "" would be a trailing newline, which ends the line before instead: left out)
  content: fc
    .array(fc.constantFrom('}', '', 'x', 'N'), { minLength: 1, maxLength: 2 })
    .map((c) => (c.length > 1 && c.at(-1) === '' ? c.slice(0, -1) : c)),
});

/** Lay ops left to right, adjacent or with small gaps, never on the same line. */
function layOut(raw: any[], n: number): Op[] {
  const ops: Op[] = [];
  let at = 0;
  for (const r of raw) {
    at += r.gap;
    if (at >= n) break;
    if (r.kind === 'replace_range' || r.kind === 'delete_range') {
      const end = at + r.len;
      if (end >= n) break;
      ops.push(
        (r.kind === 'delete_range'
          ? { kind: r.kind, at, end }
          : { kind: r.kind, at, end, content: r.content }) as Op,
      );
      at = end + 1;
    } else {
      ops.push(
        (r.kind === 'delete_line' ? { kind: r.kind, at } : { kind: r.kind, at, content: r.content }) as Op,
      );
      at += 1;
    }
  }
  return ops;
}

function truthOf(lines: string[], ops: Op[]): Tagged[] {
  const out: Tagged[] = [];
  const add = (c: string[]) => {
    for (const text of c) out.push({ orig: -1, text });
  };
  let i = 0;
  for (const o of ops) {
    for (; i < o.at; i++) out.push({ orig: i, text: lines[i]! });
    if (o.kind === 'insert_before') add(o.content), out.push({ orig: i, text: lines[i]! });
    else if (o.kind === 'insert_after') out.push({ orig: i, text: lines[i]! }), add(o.content);
    else if (o.kind === 'replace_line') add(o.content);
    else if (o.kind === 'replace_range') add(o.content);
    i = 'end' in o ? o.end + 1 : o.at + 1;
  }
  for (; i < lines.length; i++) out.push({ orig: i, text: lines[i]! });
  return out;
}

const toTool = (o: Op, a: string[]) => {
  const content = 'content' in o ? o.content.join('\n') : undefined;
  if (o.kind === 'replace_range' || o.kind === 'delete_range')
    return {
      op: o.kind,
      start_hash: a[o.at],
      end_hash: a[o.end],
      ...(content === undefined ? {} : { content }),
    };
  return { op: o.kind, hash: a[o.at], ...(content === undefined ? {} : { content }) };
};

async function attack(lines: string[], raw: any[], eol: string, finalNl: boolean, bom: boolean, pad: number) {
  const all = [...Array(pad).fill('}'), ...lines, ...Array(pad).fill('}')];
  const ops = layOut(raw, lines.length).map(
    (o) => ({ ...o, at: o.at + pad, ...('end' in o ? { end: o.end + pad } : {}) }) as Op,
  );
  const before = (bom ? '\uFEFF' : '') + all.join(eol) + (finalNl ? eol : '');
  const r = await runGated(before, 'edit_lines', (a) => ({
    operations: ops.map((o) => toTool(o, a)),
    sanity: 'off',
  }));
  const truth = truthOf(all, ops);
  const multi = all.length > 1 || finalNl;
  const e = multi ? eol : '\n';
  const expected =
    (bom ? '\uFEFF' : '') + truth.map((t) => t.text).join(e) + (finalNl && truth.length ? e : '');
  // Deleting the unterminated last line leaves the line before with its newline (as edit_lines does
  // for one delete).
  const n = all.length;
  const lastDeleted = ops.some(
    (o) => (o.kind === 'delete_line' && o.at === n - 1) || (o.kind === 'delete_range' && o.end === n - 1),
  );
  const newNl = finalNl || lastDeleted;
  const exp2 = (bom ? '\uFEFF' : '') + truth.map((t) => t.text).join(e) + (newNl && truth.length ? e : '');
  // An empty unterminated last line is no line at all (the text ends with the newline before it).
  const phantom = !newNl && truth.length > 1 && truth.at(-1)!.orig === -1 && truth.at(-1)!.text === '';
  const placed = phantom ? truth.slice(0, -1) : truth;
  return {
    r,
    all,
    ops,
    truth,
    before,
    expected: exp2,
    strict: expected,
    shown: shownTruth(placed, all.length, finalNl, bom, newNl || phantom),
  };
}

const argsArb = fc.tuple(
  fc.array(fc.constantFrom('}', '', '}', '', 'x'), { minLength: 2, maxLength: 20 }),
  fc.array(rawOp, { minLength: 2, maxLength: 5 }),
  fc.constantFrom('\n', '\r\n'),
  fc.boolean(),
  fc.boolean(),
  fc.constantFrom(0, 0, 600),
);

let refused = 0;
let applied = 0;
describe('rt33 edit_lines adjacent operations', () => {
  it('property: bytes written are the ops applied; the diff reproduces them; each op shown at its anchor', async () => {
    await fc.assert(
      fc.asyncProperty(argsArb, async (args) => {
        const [lines, , , finalNl] = args;
        if (!finalNl && lines.at(-1) === '' && args[5] === 0) return;
        const { r, all, ops, before, expected, shown } = await attack(...args);
        if (ops.length < 2) return;
        const ctx = JSON.stringify({ args, ops, err: r.outcome.error });
        // insert_after k + insert_before k+1 (one gap) is refused as overlapping: a refusal is fine.
        if (!r.outcome.ok && /overlap/.test(r.outcome.error.message)) return void refused++;
        expect(r.outcome.ok, ctx).toBe(true);
        applied++;
        // Content "" as the unterminated last line: see rt33-empty-last. Compare text only then.
        expect(r.after, ctx).toBe(expected);
        if (r.after === before) return;
        expect(applyShown(before, r.payload.unifiedDiff), ctx).toBe(r.after);
        if (r.payload.diffCoarse) return; // documented: over the time budget (a loaded machine)
        expect(
          checkAgainstTruth(r.payload.unifiedDiff, all, shown),
          `${ctx}\n${r.payload.unifiedDiff}`,
        ).toEqual([]);
      }),
      { numRuns: Number(process.env.RT33_RUNS ?? 400) },
    );
    expect(applied).toBeGreaterThan(100);
    console.log('rt33 edit_lines applied', applied, 'refused', refused);
  }, 300_000);
});
