// rt32: native batches mixing tools on one file (edit_lines then edit_file, edit_file then edit_lines).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import {
  anchorsOf,
  applyLineOps,
  cleanup,
  type LineOp,
  nativeBatch,
  type Tagged,
  tempDir,
  toolLineOp,
} from './rt32-harness.js';

afterEach(cleanup);
const txt = (t: Tagged[]) => (t.length ? `${t.map((x) => x.text).join('\n')}\n` : '');
const opArb = fc.record({
  line: fc.nat(),
  kind: fc.constantFrom('replace', 'insert_after', 'insert_before', 'delete'),
  content: fc.constantFrom('}', '', 'x', 'N'),
});
function dedupe(raw: any[], n: number, skip?: number): LineOp[] {
  const seen = new Set<number>();
  return raw
    .map((r) => ({ ...r, line: r.line % n }))
    .filter((r) => r.line !== skip && !seen.has(r.line) && !!seen.add(r.line));
}
/** Replace the one line "T" (index t) with "T2" in a true result, if it is still there. */
function replaceT(t: Tagged[], ti: number): Tagged[] | undefined {
  const k = t.findIndex((x) => x.orig === ti);
  if (k < 0) return undefined;
  const out = t.slice();
  out[k] = { orig: -1, text: 'T2' };
  return out;
}

async function setup(lines: string[]) {
  const before = `${lines.join('\n')}\n`;
  const dir = tempDir({ 'f.txt': before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const rd: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true });
  return { before, dir, toolset, a: anchorsOf(rd.data.content) };
}

describe('rt32 native combos (held)', () => {
  it('property: edit_lines (1-3 ops, not on T) then edit_file T -> T2: both land as shown, or the later is refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<string>('}', '}', '', 'x'), { minLength: 4, maxLength: 30 }),
        fc.nat(),
        fc.array(opArb, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (base, tpos, raw, first) => {
          const lines = base.slice();
          const ti = tpos % lines.length;
          lines[ti] = 'T';
          const ops = dedupe(raw, lines.length, ti);
          if (ops.length === 0) return;
          const { before, dir, toolset, a } = await setup(lines);
          const el = {
            name: 'edit_lines',
            input: { path: '/f.txt', operations: ops.map((o) => toolLineOp(o, a[o.line]!)), sanity: 'off' },
          };
          const ef = { name: 'edit_file', input: { path: '/f.txt', old_string: 'T\n', new_string: 'T2\n' } };
          const r = await nativeBatch(dir, toolset, first ? [el, ef] : [ef, el]);
          cleanup();
          const orig: Tagged[] = lines.map((text, i) => ({ orig: i, text }));
          const t1 = applyLineOps(lines, ops);
          const both = replaceT(t1, ti)!;
          const ok = [txt(both), txt(t1), txt(replaceT(orig, ti)!), before];
          expect(ok, JSON.stringify({ lines, ops, first })).toContain(r.after);
        },
      ),
      { numRuns: 120 },
    );
  }, 300_000);

  it('property: edit_file T -> T + inserted line(s) then edit_lines elsewhere: never lands elsewhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<string>('}', '}', '', 'x'), { minLength: 4, maxLength: 30 }),
        fc.nat(),
        fc.constantFrom('T\n}\n', '}\nT\n', 'T\n\n', '', '}\n}\nT\n}\n'),
        fc.array(opArb, { minLength: 1, maxLength: 1 }),
        async (base, tpos, neu, raw) => {
          const lines = base.slice();
          const ti = tpos % lines.length;
          lines[ti] = 'T';
          const ops = dedupe(raw, lines.length, ti);
          if (ops.length === 0) return;
          const { before, dir, toolset, a } = await setup(lines);
          const r = await nativeBatch(dir, toolset, [
            { name: 'edit_file', input: { path: '/f.txt', old_string: 'T\n', new_string: neu } },
            {
              name: 'edit_lines',
              input: { path: '/f.txt', operations: ops.map((o) => toolLineOp(o, a[o.line]!)), sanity: 'off' },
            },
          ]);
          cleanup();
          // True result of the edit_file: T's line replaced by the new lines (as new lines).
          const newLines = neu === '' ? [] : neu.replace(/\n$/, '').split('\n');
          const t1: Tagged[] = [];
          lines.forEach((text, i) => {
            if (i === ti) for (const l of newLines) t1.push({ orig: -1, text: l });
            else t1.push({ orig: i, text });
          });
          // ops2 on top of t1
          const by = new Map(ops.map((o) => [o.line, o]));
          const both: Tagged[] = [];
          for (const x of t1) {
            const o = x.orig >= 0 ? by.get(x.orig) : undefined;
            if (o?.kind === 'insert_before') both.push({ orig: -1, text: o.content });
            if (o?.kind === 'replace') both.push({ orig: -1, text: o.content });
            else if (o?.kind !== 'delete') both.push(x);
            if (o?.kind === 'insert_after') both.push({ orig: -1, text: o.content });
          }
          const ok = [txt(both), txt(t1), txt(applyLineOps(lines, ops)), before];
          expect(ok, JSON.stringify({ lines, neu, ops })).toContain(r.after);
        },
      ),
      { numRuns: 150 },
    );
  }, 300_000);
});
