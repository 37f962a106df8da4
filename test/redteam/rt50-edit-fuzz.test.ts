import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyUnified, gated, get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(rm));

const lineArb = fc
  .tuple(
    fc.constantFrom('', ' ', '  ', '\t', '    ', '\t '),
    fc.constantFrom('a', 'b()', '}', '{', 'x = 1', '“q”', ''),
    fc.constantFrom('', ' ', '\t', '  '),
  )
  .map(([i, b, t]) => i + b + t);
const fileArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 14 }),
  eol: fc.constantFrom('\n', '\r\n'),
  finalNl: fc.boolean(),
  bom: fc.boolean(),
});
// old_string: a slice of lines, with per-line mutation of indentation/trailing ws; or a raw substring
const editArb = fc.record({
  start: fc.nat(),
  len: fc.integer({ min: 1, max: 4 }),
  dedent: fc.constantFrom(0, 1, 2),
  stripTrail: fc.boolean(),
  newLines: fc.array(lineArb, { maxLength: 4 }),
  newFinalNl: fc.boolean(),
  replaceAll: fc.boolean(),
  rawSub: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 12 }))),
  newRaw: fc.constantFrom('Z', 'Z\nY', '', '$&', '\n', '  Z\n'),
});

describe('rt50 edit_file fuzz: payload diff == written bytes, refusals change nothing, exact == plain replace', () => {
  it('holds', async () => {
    const dir = mkdir();
    dirs.push(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fileArb, editArb, async (f, e) => {
        fc.pre(f.finalNl || f.lines[f.lines.length - 1] !== '');
        const body = f.lines.join(f.eol) + (f.finalNl ? f.eol : '');
        const file = (f.bom ? '\uFEFF' : '') + body;
        let oldStr: string;
        let newStr: string;
        if (e.rawSub) {
          const logical = f.lines.join('\n') + (f.finalNl ? '\n' : '');
          const s = e.rawSub[0] % Math.max(1, logical.length);
          oldStr = logical.slice(s, s + e.rawSub[1]);
          newStr = e.newRaw;
        } else {
          const s = e.start % f.lines.length;
          const sl = f.lines.slice(s, s + e.len).map((l) => {
            let x = l;
            for (let k = 0; k < e.dedent && /^[ \t]/.test(x); k++) x = x.slice(1);
            if (e.stripTrail) x = x.replace(/[ \t]+$/, '');
            return x;
          });
          fc.pre(sl[0]!.trim() !== '' && sl[sl.length - 1]!.trim() !== '');
          if (e.newLines.length)
            fc.pre(e.newLines[0]!.trim() !== '' && e.newLines[e.newLines.length - 1]!.trim() !== '');
          oldStr = sl.join('\n');
          newStr = e.newLines.join('\n') + (e.newFinalNl ? '\n' : '');
        }
        fc.pre(oldStr.length > 0 && oldStr !== newStr);
        const name = `e${n++}.txt`;
        put(dir, name, file);
        const args = { path: `/${name}`, old_string: oldStr, new_string: newStr, replace_all: e.replaceAll };
        const dry: any = await raw(dir).callTool('edit_file', { ...args, dryRun: true });
        expect(get(dir, name)).toBe(file);
        const g = gated(dir);
        const out: any = await g.g.callTool('edit_file', args);
        const after = get(dir, name);
        const ctx = { f, oldStr, newStr, replaceAll: e.replaceAll };
        if (!out.ok) {
          expect(after).toBe(file);
          expect(out.error.code).not.toBe('io_error');
          expect(dry.ok).toBe(false);
          return;
        }
        const p = g.payloads[0];
        expect(p).toBeDefined();
        // diffCoarse is not asserted: the diff's budget is time, so a loaded machine may set it; the diff must apply exactly either way.
        let applied: string;
        try {
          applied = applyUnified(file, p.unifiedDiff);
        } catch (err: any) {
          applied = `APPLY ERROR ${err.message}\n${p.unifiedDiff}`;
        }
        expect({ ...ctx, applied }).toEqual({ ...ctx, applied: after });
        expect(dry.ok).toBe(true);
        expect(dry.data.payload.unifiedDiff).toBe(p.unifiedDiff);
        expect(out.data.match_level).toBe(p.matchLevel);
        if (
          out.data.match_level !== 'exact' &&
          !e.rawSub &&
          !e.replaceAll &&
          !(e.newLines.length === 0 && e.newFinalNl)
        ) {
          const st = e.start % f.lines.length;
          const len = Math.min(e.len, f.lines.length - st);
          const ol = oldStr.split('\n').map((x) => x.trim());
          let windows = 0;
          for (let k = 0; k + ol.length <= f.lines.length; k++)
            if (ol.every((x, q) => f.lines[k + q]!.trim() === x)) windows++;
          fc.pre(
            (windows === 1 && !oldStr.includes('“q”')) ||
              (windows === 1 && f.lines.every((l) => !l.includes('“q”') || true)),
          );
          expect(after.startsWith('\uFEFF')).toBe(f.bom);
          let b = f.bom ? after.slice(1) : after;
          const fin = /\r?\n$/.test(b);
          if (fin) b = b.replace(/\r?\n$/, '');
          const prefix = f.lines.slice(0, st);
          const suffix = f.lines.slice(st + len);
          // An empty text is no lines, or one empty line without its newline: the one expected.
          const oneEmptyLine = prefix.length + suffix.length + e.newLines.length === 1;
          const al = b === '' && !fin ? (oneEmptyLine ? [''] : []) : b.split(/\r?\n/);
          const mid = al.slice(prefix.length, al.length - suffix.length);
          const norm = (x: string) => x.trim();
          const got = {
            ...ctx,
            level: out.data.match_level,
            prefix: al.slice(0, prefix.length),
            suffix: al.slice(al.length - suffix.length),
            mid: mid.map(norm),
            noStrayCR: !/\r(?!\n)/.test(after) && (f.eol === '\r\n' || !after.includes('\r')),
          };
          expect(got).toEqual({
            ...ctx,
            level: out.data.match_level,
            prefix,
            suffix,
            mid: e.newLines.map(norm),
            noStrayCR: true,
          });
        }
        if (out.data.match_level === 'exact' && f.eol === '\n' && !/[\r]/.test(oldStr)) {
          const parts = file.split(oldStr);
          if (e.replaceAll) {
            expect(out.data.replacements_made).toBe(parts.length - 1);
          } else {
            expect(out.data.replacements_made).toBe(1);
          }
          const expected = e.replaceAll ? parts.join(newStr) : file.replace(oldStr, () => newStr);
          expect({ ...ctx, after }).toEqual({ ...ctx, after: expected });
        }
      }),
      { numRuns: 1500 },
    );
  }, 300_000);
});
