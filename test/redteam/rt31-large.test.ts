// rt31: edit_file on 100k–1M-line files: first/last line matches, ambiguity across the file with true line
// numbers, CRLF + BOM + no final newline kept, bytes outside the change identical, sha256 of the bytes on disk.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAll, runTool, sha } from './rt31-harness.js';

afterEach(cleanupAll);

function big(n: number, eol: string, at: Record<number, string>, finalNl: boolean, bom = false): string[] {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(at[i] ?? (i % 3 === 0 ? '}' : i % 3 === 1 ? '  }' : ''));
  return lines;
}
const join = (lines: string[], eol: string, finalNl: boolean, bom: boolean) =>
  (bom ? '\uFEFF' : '') + lines.join(eol) + (finalNl ? eol : '');

describe('rt31 edit_file on large files', () => {
  for (const [n, eol, finalNl, bom] of [
    [100_000, '\r\n', false, true],
    [1_000_000, '\n', true, false],
    [1_000_000, '\r\n', false, true],
  ] as const) {
    it(`${n} lines ${JSON.stringify(eol)} final=${finalNl} bom=${bom}: fuzzy match at the very last line`, async () => {
      const lines = big(n, eol, { [n - 2]: '\tlast_call( 1 );  ', [n - 1]: '\tend  ' }, finalNl, bom);
      const text = join(lines, eol, finalNl, bom);
      const r = await runTool(text, 'edit_file', {
        old_string: 'last_call( 1 );\nend',
        new_string: 'last_call( 2 );\nend',
      });
      expect(r.outcome.ok, JSON.stringify(r.outcome.error)).toBe(true);
      const want = [...lines];
      want[n - 2] = '\tlast_call( 2 );';
      expect(r.after === join(want, eol, finalNl, bom)).toBe(true);
      expect(r.outcome.data.sha256).toBe(sha(r.afterBytes));
      expect(r.outcome.data.message).toContain(`line ${n - 1}`);
      expect(r.outcome.data.match_level).toBe('indentation');
    }, 120_000);

    it(`${n} lines: ambiguity across the whole file lists true line numbers, changes nothing`, async () => {
      const mid = Math.floor(n / 2) + 1;
      const lines = big(
        n,
        eol,
        {
          0: 'dup();',
          1: 'tail',
          [mid]: 'dup(); ',
          [mid + 1]: 'tail',
          [n - 2]: '  dup();',
          [n - 1]: 'tail ',
        },
        finalNl,
        bom,
      );
      const text = join(lines, eol, finalNl, bom);
      const r = await runTool(text, 'edit_file', { old_string: 'dup();\t\ntail', new_string: 'x' });
      expect(r.outcome.ok).toBe(false);
      // trailing_whitespace level: lines 1 and mid+1 ("  dup();" differs in indentation)
      expect(r.outcome.error.code).toBe('edit_not_unique');
      expect(r.outcome.error.details.match_lines).toEqual([1, mid + 1]);
      expect(r.afterBytes.equals(Buffer.from(text))).toBe(true);
    }, 120_000);
  }

  it('replace_all over 20,000 fuzzy matches (60k lines) takes about as long as the exact level, not minutes', async () => {
    // measured: exact "  }" 0.35 s; fuzzy "  } " 27 s at 60k lines, 5.8 s at 30k, 1.3 s at 15k (quadratic; 1M lines
    // would take about two hours inside one tool call)
    const n = 60_000;
    const lines = big(n, '\r\n', {}, true);
    const text = join(lines, '\r\n', false, false);
    const t0 = Date.now();
    const r = await runTool(text, 'edit_file', { old_string: '  } ', new_string: '  ]', replace_all: true });
    const ms = Date.now() - t0;
    expect(r.outcome.ok, JSON.stringify(r.outcome.error)).toBe(true);
    expect(r.outcome.data.match_level).toBe('trailing_whitespace');
    expect(r.outcome.data.replacements_made).toBe(20_000);
    expect(
      r.after ===
        join(
          lines.map((l) => (l === '  }' ? '  ]' : l)),
          '\r\n',
          false,
          false,
        ),
    ).toBe(true);
    expect(ms).toBeLessThan(5_000);
  }, 300_000);
});
