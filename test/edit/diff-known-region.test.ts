import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedUnifiedDiff, checkedChanges } from '../../src/edit/bounded-diff.js';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { expectDiffWithin, hintLines } from '../helpers/diff-region.js';

// Lines that repeat (braces, blanks): an insertion or deletion among them could be shown
// anywhere along the run; the diff must show it where the edit made it.
const line = fc.constantFrom('}', '', '}', 'x', '  }');
/** Filler that makes a text long enough (over 1 KiB on either side) for the diff to cut its ends. */
const filler = Array.from({ length: 60 }, (_, i) => `filler line ${i} ${'-'.repeat(20)}`);

const edit = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 40 }),
  at: fc.nat(),
  removed: fc.nat(4),
  added: fc.array(line, { maxLength: 4 }),
  padHead: fc.boolean(),
  padTail: fc.boolean(),
  finalNewline: fc.boolean(),
});

describe('a diff given where the edit changed the text', () => {
  it('shows every change inside that region, and still turns the old text into the new', () => {
    fc.assert(
      fc.property(edit, (e) => {
        const lines = [...(e.padHead ? filler : []), ...e.lines, ...(e.padTail ? filler : [])];
        const start = e.at % (lines.length + 1);
        const end = Math.min(lines.length, start + e.removed);
        const next = [...lines.slice(0, start), ...e.added, ...lines.slice(end)];
        const join = (ls: string[]) => (ls.length === 0 ? '' : ls.join('\n') + (e.finalNewline ? '\n' : ''));
        const before = join(lines);
        const after = join(next);
        if (before === after) return;
        // Offsets of the lines the edit replaced (whole lines, so their ends are shared).
        const offset = (n: number) => lines.slice(0, n).reduce((s, l) => s + l.length + 1, 0);
        const head = Math.min(offset(start), before.length, after.length);
        const tail = Math.min(before.length - Math.min(offset(end), before.length), after.length - head);
        // Without a final newline the last line's ending changes with what follows it: widen by a line.
        const known = e.finalNewline
          ? { head, tail, headLines: start }
          : { head: Math.min(head, offset(Math.max(0, start - 1))), tail: 0 };
        expect(after.slice(0, known.head)).toBe(before.slice(0, known.head));
        expect(after.slice(after.length - known.tail)).toBe(before.slice(before.length - known.tail));
        const diff = boundedUnifiedDiff(before, after, { oldPath: '/f', newPath: '/f', known });
        const [first, last] = hintLines(before, after, known);
        expectDiffWithin(before, after, diff.unifiedDiff, first, last);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('a guess of where a splice changed the text', () => {
  it('is kept only when it holds, and what is returned always holds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.string({ unit: fc.constantFrom('a', 'b', '\n'), maxLength: 10 }),
        fc.nat(12),
        fc.nat(12),
        (old, x, y, middle, dh, dt) => {
          const head = x % (old.length + 1);
          const tail = y % (old.length - head + 1);
          const now = old.slice(0, head) + middle + old.slice(old.length - tail);
          const guess = {
            oldFrom: head + dh,
            oldTo: old.length - tail - dt,
            newFrom: head + dh,
            newTo: now.length - tail - dt,
          };
          const got = checkedChanges(old, { head, middle, tail }, [guess]) ?? { head, tail };
          expect(now.slice(0, got.head)).toBe(old.slice(0, got.head));
          expect(now.slice(now.length - got.tail)).toBe(old.slice(old.length - got.tail));
          expect(got.head + got.tail).toBeLessThanOrEqual(Math.min(old.length, now.length));
          const holds =
            head + dh + tail + dt <= Math.min(old.length, now.length) &&
            now.slice(0, head + dh) === old.slice(0, head + dh) &&
            now.slice(now.length - tail - dt) === old.slice(old.length - tail - dt);
          expect(got.head === head + dh && got.tail === tail + dt).toBe(holds);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('edit tools show each change where it lands', () => {
  it('edit_lines: one insert/replace/delete among repeated lines is shown at its own line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-region-'));
    try {
      const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      await fc.assert(
        fc.asyncProperty(
          fc.array(line, { minLength: 2, maxLength: 30 }),
          fc.nat(),
          fc.constantFrom('insert_after', 'replace_line', 'delete_line'),
          line,
          async (lines, at, op, content) => {
            const text = `${lines.join('\n')}\n`;
            fs.writeFileSync(path.join(dir, 'f.txt'), text);
            const read: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true });
            const anchors = read.data.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l: string) => l.split('|')[0]);
            const i = at % lines.length;
            const operation =
              op === 'delete_line' ? { op, hash: anchors[i] } : { op, hash: anchors[i], content };
            const check: any = await toolset.needsApproval(
              'edit_lines',
              { path: '/f.txt', operations: [operation], sanity: 'off' },
              {},
              { default: 'ask' } as never,
            );
            if (check.status !== 'needs_approval') return; // a no-op replace is refused
            const expected = [...lines];
            if (op === 'insert_after') expected.splice(i + 1, 0, content);
            else if (op === 'replace_line') expected.splice(i, 1, content);
            else expected.splice(i, 1);
            const after = expected.length === 0 ? '' : `${expected.join('\n')}\n`;
            const [first, end] = op === 'insert_after' ? [i + 1, i + 1] : [i, i + 1];
            expectDiffWithin(text, after, check.payload.unifiedDiff, first, end);
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('patch_file: a hunk inserting or removing a repeated line is shown where the hunk put it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diff-region-'));
    try {
      const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      await fc.assert(
        fc.asyncProperty(
          fc.array(line, { minLength: 3, maxLength: 30 }),
          fc.nat(),
          fc.boolean(),
          line,
          async (lines, at, insert, content) => {
            const text = `${lines.join('\n')}\n`;
            fs.writeFileSync(path.join(dir, 'f.txt'), text);
            const read: any = await toolset.callTool('read_file', { path: '/f.txt' });
            const i = at % lines.length;
            // One context line each side, as the model would write it.
            const ctxBefore = i > 0 ? [` ${lines[i - 1]}`] : [];
            const change = insert ? [`+${content}`, ` ${lines[i]}`] : [`-${lines[i]}`];
            const ctxAfter = !insert && i + 1 < lines.length ? [` ${lines[i + 1]}`] : [];
            const body = [...ctxBefore, ...change, ...ctxAfter];
            const olds = body.filter((l) => !l.startsWith('+')).length;
            const news = body.filter((l) => !l.startsWith('-')).length;
            const start = i > 0 ? i : 1;
            const unified = `--- a/f.txt\n+++ b/f.txt\n@@ -${start},${olds} +${start},${news} @@\n${body.join('\n')}\n`;
            const check: any = await toolset.needsApproval(
              'patch_file',
              { path: '/f.txt', unified_diff: unified, base_sha256: read.data.sha256 },
              {},
              { default: 'ask' } as never,
            );
            if (check.status !== 'needs_approval') return; // ambiguous placement is refused
            const expected = [...lines];
            if (insert) expected.splice(i, 0, content);
            else expected.splice(i, 1);
            const after = expected.length === 0 ? '' : `${expected.join('\n')}\n`;
            // Where the hunk was placed is the tool's call (a repeated context may match elsewhere);
            // the check is that the diff shows the change at that place and nowhere else.
            const placed = check.payload.unifiedDiff;
            const applied = await toolset.callTool('patch_file', {
              path: '/f.txt',
              unified_diff: unified,
              base_sha256: read.data.sha256,
            });
            expect(applied.ok).toBe(true);
            const landed = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
            if (landed !== after) return; // placed elsewhere (a repeated context); shown diff checked below
            const [first, end] = insert ? [i, i] : [i, i + 1];
            expectDiffWithin(text, after, placed, first, end);
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
