import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyUnified, gated, get, mkdir, put, raw, rm } from './rt50-helpers.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach(rm));

function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

const chars = fc.constantFrom('a', 'b', 'c', '\n', '}', '$', '&', '1', '(', ')', 'é', '😀', ';');
const text = fc.array(chars, { minLength: 1, maxLength: 40 }).map((a) => a.join(''));

describe('rt50 exact edit_file is a plain replacement (no whitespace in alphabet)', () => {
  it('unique exact match: written bytes == plain replacement; payload diff applies to them', async () => {
    const dir = mkdir();
    dirs.push(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(text, fc.nat(), fc.nat(), text, fc.boolean(), async (file, a, b, newStr, useGate) => {
        const s = a % file.length;
        const e = s + 1 + (b % (file.length - s));
        const oldStr = file.slice(s, e);
        fc.pre(occurrences(file, oldStr) === 1 && oldStr !== newStr);
        fc.pre(oldStr.trim() !== '' && !/^[\s]/.test(oldStr));
        const name = `f${n++}.txt`;
        put(dir, name, file);
        const expected = file.slice(0, s) + newStr + file.slice(e);
        const args = { path: `/${name}`, old_string: oldStr, new_string: newStr };
        let out: any;
        let payload: any;
        if (useGate) {
          const g = gated(dir);
          out = await g.g.callTool('edit_file', args);
          payload = g.payloads[0];
        } else {
          out = await raw(dir).callTool('edit_file', args);
        }
        if (!out.ok) {
          // refusal is acceptable only when not a crash and file unchanged
          expect(get(dir, name)).toBe(file);
          expect(out.error.code).not.toBe('io_error');
          return;
        }
        expect({ file, oldStr, newStr, got: get(dir, name) }).toEqual({
          file,
          oldStr,
          newStr,
          got: expected,
        });
        expect(out.data.match_level).toBe('exact');
        expect(out.data.replacements_made).toBe(1);
        if (payload) expect(applyUnified(file, payload.unifiedDiff)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('replace_all: written bytes == split/join; replacements_made == count; payload diff applies', async () => {
    const dir = mkdir();
    dirs.push(dir);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(text, fc.nat(), fc.nat(), text, async (file, a, b, newStr) => {
        const s = a % file.length;
        const e = s + 1 + (b % Math.min(4, file.length - s));
        const oldStr = file.slice(s, e);
        fc.pre(oldStr !== newStr && oldStr.trim() !== '');
        const name = `g${n++}.txt`;
        put(dir, name, file);
        const expected = file.split(oldStr).join(newStr);
        const g = gated(dir);
        const out: any = await g.g.callTool('edit_file', {
          path: `/${name}`,
          old_string: oldStr,
          new_string: newStr,
          replace_all: true,
        });
        if (!out.ok) {
          expect(get(dir, name)).toBe(file);
          expect(out.error.code).not.toBe('io_error');
          return;
        }
        expect({ file, oldStr, newStr, got: get(dir, name) }).toEqual({
          file,
          oldStr,
          newStr,
          got: expected,
        });
        expect(out.data.match_level).toBe('exact');
        expect(out.data.replacements_made).toBe(file.split(oldStr).length - 1);
        expect(applyUnified(file, g.payloads[0].unifiedDiff)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
