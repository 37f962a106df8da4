// Red team (rt35): line numbers reported for edit_file — payload matchLine, the description's and result
// message's "at line N", edit_not_unique details.match_lines, replace_all matchLine/matchCount — deep in big
// files of very short lines (500k lines), ASCII and non-ASCII (é, astral), CRLF, BOM, lone CR, U+2028/U+0085
// inside lines, matches mid-line, starting with "\n", and fuzzy (trailing whitespace, indentation, unicode).
// Also: hashed anchors in a 70k-line file followed with a slipped line number land on the intended line.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, env, parseHashed } from './rt35-harness.js';

afterEach(cleanup);

const FILLS = ['}', 'é', '😀😀', '', 'ab', '\u2028x', 'a\rb', '\u0085'];

describe('edit_file line numbers', () => {
  it('single match: matchLine, description and message agree with the true line', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(10, 2000, 70_000, 500_000),
        fc.constantFrom(...FILLS),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        async (n, fill, frac, shape, eol, bom) => {
          const m = Math.floor(frac * n);
          if (shape === 2 && m === 0) return;
          const ls: string[] = Array(n).fill(fill);
          let line = 'pre😀 KEY post';
          let old_string = 'KEY';
          let exp = m + 1;
          if (shape === 1) old_string = 'KEY post';
          else if (shape === 2) {
            old_string = `\n${line}`;
            exp = m;
          } else if (shape === 3) line = '  KEY  ';
          else if (shape === 4) {
            line = '\tKEY';
            old_string = '    KEY\n';
          }
          ls[m] = line;
          const before = (bom ? '\ufeff' : '') + ls.join(eol) + eol;
          const E = env();
          E.write(before);
          const out: any = await E.gated.callTool('edit_file', {
            path: '/f.txt',
            old_string,
            new_string: old_string.replace('KEY', 'KEZ'),
          });
          expect(out.ok).toBe(true);
          const p = E.payloads[0];
          expect([
            p.matchLine,
            /at line (\d+)/.exec(out.data.message)?.[1],
            /line (\d+)/.exec(p.description)?.[1],
          ]).toEqual([exp, String(exp), String(exp)]);
          cleanup();
        },
      ),
      { numRuns: 30, seed: 3504 },
    );
  });

  it('several matches: edit_not_unique match_lines, and replace_all matchLine/matchCount', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(2000, 70_000, 300_000),
        fc.constantFrom(...FILLS),
        fc.uniqueArray(fc.double({ min: 0, max: 0.9999, noNaN: true }), { minLength: 2, maxLength: 5 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        async (n, fill, fracs, shape, eol, bom) => {
          const ms = [...new Set(fracs.map((f) => Math.floor(f * n)))].sort((a, b) => a - b);
          if (ms.length < 2) return;
          const ls: string[] = Array(n).fill(fill);
          for (const m of ms) ls[m] = shape === 0 ? 'x KEY' : shape === 1 ? '  KEY  ' : '\t“KEY”';
          const old_string = shape === 0 ? 'KEY' : shape === 1 ? 'KEY\n' : '  "KEY"';
          const before = (bom ? '\ufeff' : '') + ls.join(eol) + eol;
          const E = env();
          E.write(before);
          const args = { path: '/f.txt', old_string, new_string: old_string.replace('KEY', 'KEZ') };
          const out: any = await E.gated.callTool('edit_file', args);
          expect(out.ok ? 'ok' : [out.error.code, out.error.details?.match_lines]).toEqual([
            'edit_not_unique',
            ms.map((m) => m + 1),
          ]);
          const dry: any = await E.gated.callTool('edit_file', { ...args, replace_all: true, dryRun: true });
          expect([dry.data.payload.matchLine, dry.data.payload.matchCount]).toEqual([ms[0]! + 1, ms.length]);
          cleanup();
        },
      ),
      { numRuns: 25, seed: 3505 },
    );
  });
});

describe('anchors with a slipped line number (70k lines)', () => {
  it('a hash held by one line is followed to that line; the edit changes exactly it', async () => {
    const n = 70_000;
    const ls = Array.from({ length: n }, (_, i) =>
      i % 5 === 0 ? `v${i % 700}` : i % 5 === 1 ? '}' : `s${i}`,
    );
    const before = `${ls.join('\n')}\n`;
    const E = env();
    E.write(before);
    const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
    const rows = parseHashed(rd.data.content);
    const count = new Map<string, number>();
    for (const r of rows) count.set(r.hash, (count.get(r.hash) ?? 0) + 1);
    for (const [ln, slip] of [
      [3, 1],
      [40_002, -1],
      [65_537, 3],
      [69_999, -4],
      [70_000, -2],
      [12_346, 7],
    ] as const) {
      const row = rows[ln - 1]!;
      if (count.get(row.hash)! > 1) continue; // collisions: see rt35-anchor-collide
      const out: any = await E.toolset.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: `${ln + slip}#${row.hash}`, content: 'CHANGED' }],
        sanity: 'off',
      });
      expect(out.ok ? 'ok' : out.error.code).toBe('ok');
      const after = E.disk().split('\n');
      expect(after.flatMap((l, i) => (l === 'CHANGED' ? [i + 1] : []))).toEqual([ln]);
      E.write(before);
      await E.toolset.callTool('read_file', { path: '/f.txt', hashes: true });
    }
  });
});
