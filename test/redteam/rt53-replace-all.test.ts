import fs from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ApprovalPayload, ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';
import { gnuPatch } from './rt53-helpers.js';

// Promises 1 and 2: replace_all writes split/join; the approval diff applied to the old file is
// what is written, and its counts match its text.

const isBlank = (c: number) => c === 32 || c === 9;
/** The documented whitespace-slip rule (docs/tools.md, edit_file): every hit slipping sends it to the fuzzy levels. */
function slips(body: string, o: number, a: string, b: string): boolean {
  if (isBlank(a.charCodeAt(0)) && o > 0 && isBlank(body.charCodeAt(o - 1))) {
    let p = o - 1;
    while (p >= 0 && isBlank(body.charCodeAt(p))) p--;
    if (p < 0 || body.charCodeAt(p) === 10) return true;
  }
  const end = o + a.length;
  const linesChange = a.includes('\n') || b === '' || b.includes('\n');
  if (linesChange && !a.endsWith('\n') && isBlank(body.charCodeAt(end))) {
    let p = end;
    while (p < body.length && isBlank(body.charCodeAt(p))) p++;
    if (p === body.length || body.charCodeAt(p) === 10 || body.charCodeAt(p) === 13) return true;
  }
  return false;
}
function offsetsOf(t: string, a: string) {
  const out: number[] = [];
  for (let o = t.indexOf(a); o !== -1; o = t.indexOf(a, o + 1)) out.push(o);
  return out;
}

interface Gated {
  outcome: { ok: boolean; data?: any; error?: any };
  payload: any;
  before: Buffer;
  after: Buffer;
  dir: string;
}
async function gatedEdit(
  before: Buffer,
  args: Record<string, unknown>,
  callback: 'clone' | 'mutate' | 'json' | 'read' = 'clone',
): Promise<Gated> {
  const dir = tempDir({ 'f.txt': before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  let payload: any;
  const gated = new ApprovalToolset(toolset, {
    approve: (req) => {
      const p = req.payload as any;
      if (callback === 'clone') payload = structuredClone(p);
      else if (callback === 'json') payload = JSON.parse(JSON.stringify(p));
      else if (callback === 'read') payload = { ...p, unifiedDiff: `${p.unifiedDiff}` };
      else {
        payload = structuredClone(p);
        // A careless UI mutating what it was given: nothing it changes may reach the disk.
        p.unifiedDiff = '';
        p.newString = 'MUTATED';
        p.oldString = 'x';
        p.replaceAll = false;
        if (req.args && typeof req.args === 'object') (req.args as any).new_string = 'MUTATED';
      }
      return { approved: true };
    },
  });
  const outcome = (await gated.callTool('edit_file', { path: '/f.txt', ...args })) as Gated['outcome'];
  return { outcome, payload, before, after: fs.readFileSync(path.join(dir, 'f.txt')), dir };
}

function diffCounts(diff: string) {
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.startsWith('+++ ') || l.startsWith('--- ')) continue;
    if (l.startsWith('+')) added++;
    else if (l.startsWith('-')) removed++;
  }
  let nl = 0;
  for (let i = diff.indexOf('\n'); i !== -1; i = diff.indexOf('\n', i + 1)) nl++;
  return { added, removed, diffLines: nl };
}

function checkPayload(g: Gated, useGnu: boolean): string[] {
  const errs: string[] = [];
  const p = g.payload as ApprovalPayload & Record<string, any>;
  if (!p) return ['no payload'];
  if (p.diffCoarse) errs.push('diffCoarse (not a failure by itself)');
  const c = diffCounts(p.unifiedDiff);
  if (c.added !== p.added || c.removed !== p.removed || c.diffLines !== p.diffLines)
    errs.push(
      `counts payload +${p.added} -${p.removed} lines ${p.diffLines} vs text +${c.added} -${c.removed} lines ${c.diffLines}`,
    );
  if (useGnu) {
    const applied = gnuPatch(g.dir, g.before, p.unifiedDiff);
    if (typeof applied === 'string') errs.push(applied);
    else if (!applied.equals(g.after))
      errs.push(`gnu patch result differs from written (${applied.length} vs ${g.after.length} bytes)`);
  } else {
    const applied = applyPatch(g.before.toString('utf8'), p.unifiedDiff, {
      autoConvertLineEndings: false,
    } as any);
    if (applied === false) errs.push('diff does not apply');
    else if (applied !== g.after.toString('utf8'))
      errs.push(
        `applied != written: ${JSON.stringify(applied).slice(0, 200)} vs ${JSON.stringify(g.after.toString('utf8')).slice(0, 200)}`,
      );
  }
  return errs;
}

const chunk = fc.constantFrom(
  'ab',
  'a',
  'b',
  'é',
  '日本',
  '😀',
  '$&',
  '$1',
  '$$',
  'x y',
  '\n',
  '\n',
  '\r\n',
  '\r',
  '}',
  '\t}',
  ' ',
);
const needle = fc.constantFrom(
  'ab',
  'a',
  'b\n',
  '\na',
  'é',
  '😀',
  '$&',
  'b\r',
  '\r\n',
  '\n',
  'ba',
  '}\n',
  'aa',
  'x',
);
const repl = fc.constantFrom('', 'Z', '$&', '$1$$', '$`', "$'", 'L1\nL2', '\n', '😀é', 'ab', '$<n>');

describe('rt53 replace_all = split/join, payload diff = write', () => {
  it('generated files with 1,000-4,000 hits (native/byte path) and few hits; every diff applies', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(chunk, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 4000 }),
        needle,
        repl,
        fc.boolean(),
        fc.constantFrom('keep', 'lf', 'crlf'),
        async (parts, reps, oldS, newS, bom, eolMode) => {
          let body = parts.join('').repeat(Math.max(1, Math.ceil(reps / Math.max(1, parts.length))));
          if (eolMode === 'lf') body = body.replaceAll('\r\n', '\n').replaceAll('\r', '');
          if (eolMode === 'crlf')
            body = body.replaceAll('\r\n', '\n').replaceAll('\r', '').replaceAll('\n', '\r\n');
          const offs = offsetsOf(body, oldS);
          fc.pre(offs.length > 0 && oldS !== newS);
          fc.pre(!offs.every((o) => slips(body, o, oldS, newS)));
          // In a file with CRLF the tool converts new_string's line ends to the file's: keep to
          // cases where that question does not arise (LF-only files, or no \n in either string).
          const hasCrlf = body.includes('\r\n');
          fc.pre(!hasCrlf || (!oldS.includes('\n') && !newS.includes('\n')));
          const text = (bom ? '\uFEFF' : '') + body;
          const expected = (bom ? '\uFEFF' : '') + body.split(oldS).join(newS);
          const g = await gatedEdit(Buffer.from(text), {
            old_string: oldS,
            new_string: newS,
            replace_all: true,
          });
          checked++;
          if (!g.outcome.ok) {
            // Refusals must change nothing and be typed.
            expect(g.after.equals(g.before)).toBe(true);
            expect(g.outcome.error.code).not.toBe('io_error');
            // A refusal of a plain exact replacement is itself a defect of promise 1.
            throw new Error(`refused: ${g.outcome.error.code} ${g.outcome.error.message.slice(0, 200)}`);
          }
          expect(JSON.stringify(g.after.toString('utf8').slice(0, 400))).toBe(
            JSON.stringify(expected.slice(0, 400)),
          );
          expect(g.after.toString('utf8') === expected).toBe(true);
          expect(checkPayload(g, false).filter((e) => !e.startsWith('diffCoarse'))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
    console.log('replace_all cases', checked);
  });

  it("new_string with CRLF on an LF (or line-end-free) file is written in the file's line end (documented)", async () => {
    // rt53 read "verbatim" as byte for byte; the docs mean no re-indentation and no newline rule,
    // while line ends are the file's (a model reads LF whatever the file has): one line end per file.
    const g = await gatedEdit(Buffer.from('ab'), {
      old_string: 'ab',
      new_string: 'A\r\nB',
      replace_all: true,
    });
    expect(g.outcome.ok).toBe(true);
    expect(JSON.stringify(g.after.toString('utf8'))).toBe(JSON.stringify('A\nB'));
  });

  it('CRLF file, model writes LF (as it reads): every CRLF hit replaced, new lines in CRLF', async () => {
    const body = 'if (a) {\r\n  call(1);\r\n}\r\n'.repeat(1500);
    const g = await gatedEdit(Buffer.from(body), {
      old_string: '{\n  call(1);',
      new_string: '{\n  call($&);\n  more();',
      replace_all: true,
    });
    expect(g.outcome.ok).toBe(true);
    const expected = body.split('{\r\n  call(1);').join('{\r\n  call($&);\r\n  more();');
    expect(g.after.toString('utf8') === expected).toBe(true);
    expect(checkPayload(g, true).filter((e) => !e.startsWith('diffCoarse'))).toEqual([]);
  });

  for (const cb of ['mutate', 'json', 'read'] as const) {
    it(`approve callback that ${cb}s the payload: written = split/join, diff applies (9 lines in 10, 200k lines)`, async () => {
      let body = '';
      for (let i = 0; i < 200_000; i++) body += i % 10 === 9 ? `keep ${i}\n` : `val = 1; // ${i}\n`;
      const g = await gatedEdit(
        Buffer.from(body),
        { old_string: 'val = 1;', new_string: 'val = $1$&;', replace_all: true },
        cb,
      );
      expect(g.outcome.ok).toBe(true);
      const expected = body.split('val = 1;').join('val = $1$&;');
      expect(g.after.toString('utf8') === expected).toBe(true);
      expect(g.payload.unifiedDiff.length).toBeGreaterThan(64 * 1024);
      expect(checkPayload(g, true)).toEqual([]);
    });
  }
});
