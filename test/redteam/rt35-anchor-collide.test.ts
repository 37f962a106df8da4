// Red team (rt35): hashed reads of files made of few distinct lines (blank lines and lone braces), small and
// big (>= 65,536 lines). Promises: every anchor a read shows is unique in that read where the file allows it
// (a 24-bit anchor space has room for every line here), and an edit_lines operation addressed by an anchor the
// read showed — file unchanged — changes exactly that line.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, env, parseHashed } from './rt35-harness.js';

afterEach(cleanup);

function dupAnchors(rows: Array<{ line: number; hash: string }>): Array<[string, number[]]> {
  const by = new Map<string, number[]>();
  for (const x of rows) by.set(x.hash, [...(by.get(x.hash) ?? []), x.line]);
  return [...by].filter(([, v]) => v.length > 1);
}

describe('anchors of a read are unique and usable', () => {
  it('3,000 lines alternating "" and "}": no anchor shown twice', async () => {
    const E = env();
    E.write(`${Array.from({ length: 3000 }, (_, i) => (i % 2 ? '}' : '')).join('\n')}\n`);
    const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
    const rows = parseHashed(rd.data.content);
    expect(rows).toHaveLength(3000);
    // observed: [['d4000b', [1140, 1457]]] — line 1140 is "}", line 1457 is ""
    expect(dupAnchors(rows)).toEqual([]);
  });

  it('a 2,000-line page of that file (the default read size) already shows one anchor twice', async () => {
    const E = env({ readMaxChars: 50_000, readMaxLines: 2000 });
    E.write(`${Array.from({ length: 3000 }, (_, i) => (i % 2 ? '}' : '')).join('\n')}\n`);
    const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
    expect(dupAnchors(parseHashed(rd.data.content))).toEqual([]);
  });

  it('the exact anchor shown for line 1140 (file unchanged) edits line 1140', async () => {
    const E = env();
    const before = `${Array.from({ length: 3000 }, (_, i) => (i % 2 ? '}' : '')).join('\n')}\n`;
    for (const ln of [1140, 1457]) {
      E.write(before);
      const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
      const row = parseHashed(rd.data.content)[ln - 1]!;
      const out: any = await E.gated.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: `${row.line}#${row.hash}`, content: 'CHANGED' }],
        sanity: 'off',
      });
      // observed: anchor_stale "Anchor 1140#d4000b no longer exists in the file: it changed since you read it"
      expect(out.ok ? 'ok' : `${out.error.code}: ${out.error.message}`).toBe('ok');
      const lines = E.disk().split('\n');
      expect(lines.flatMap((l, i) => (l === 'CHANGED' ? [i + 1] : []))).toEqual([ln]);
    }
  });

  for (const [name, make] of [
    ['70,000 blank lines', (_i: number) => ''],
    ['70,000 lone braces', (_i: number) => '}'],
    ['66,000 alternating "" and "}"', (i: number) => (i % 2 ? '}' : '')],
  ] as const) {
    it(`${name}: a whole read shows each anchor once`, async () => {
      const n = name.startsWith('66') ? 66_000 : 70_000;
      const E = env();
      E.write(`${Array.from({ length: n }, (_, i) => make(i)).join('\n')}\n`);
      const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
      const rows = parseHashed(rd.data.content);
      expect(rows).toHaveLength(n);
      // observed: ~140-160 anchors shown twice (birthday collisions of the positional hashes)
      expect(dupAnchors(rows).slice(0, 5)).toEqual([]);
    });
  }

  it('5,000 blank lines: lines 398 and 4242 share an anchor; the shown anchor 398#… edits line 398', async () => {
    const E = env();
    const before = `${Array.from({ length: 5000 }, () => '').join('\n')}\n`;
    E.write(before);
    const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
    const rows = parseHashed(rd.data.content);
    const dups = dupAnchors(rows);
    // observed: [['96f468', [398, 4242]], …]
    expect(dups).toEqual([]);
    const row = rows[397]!;
    const out: any = await E.gated.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: `${row.line}#${row.hash}`, content: 'CHANGED' }],
      sanity: 'off',
    });
    expect(out.ok ? 'ok' : `${out.error.code}: ${out.error.message}`).toBe('ok');
    expect(E.disk().split('\n').indexOf('CHANGED')).toBe(397);
  });

  // Each line's context used to be found by walking to its nearest non-empty lines: an anchor
  // no line has, in a long run of blank lines, took 4 s at 12,000 lines and 17 s at 24,000
  // (quadratic). At 100,000 lines that would far outlast the test's time limit.
  it('100,000 blank lines: an anchor no line has is answered (anchor_stale), not a quadratic stall', async () => {
    const E = env();
    E.write(`${Array.from({ length: 100_000 }, () => '').join('\n')}\n`);
    await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
    for (const hash of ['101#abcdef', '101#abcd']) {
      const out: any = await E.gated.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash, content: 'CHANGED' }],
        sanity: 'off',
      });
      expect(out.ok ? 'ok' : out.error.code).toBe('anchor_stale');
    }
  }, 60_000);

  it('property: random files of a few repeated lines (2k-8k lines): a whole read shows each anchor once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('', '}', '  }', 'return;', ')', '{'), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 2000, max: 8000 }),
        fc.integer(),
        async (alphabet, n, seed) => {
          let s = seed >>> 0;
          const lines = Array.from({ length: n }, () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return alphabet[(s >>> 16) % alphabet.length]!;
          });
          const E = env();
          E.write(`${lines.join('\n')}\n`);
          const rd: any = await E.gated.callTool('read_file', { path: '/f.txt', hashes: true });
          const rows = parseHashed(rd.data.content);
          expect(rows.map((r) => r.text)).toEqual(lines);
          expect(dupAnchors(rows)).toEqual([]);
          cleanup();
        },
      ),
      { numRuns: 25, seed: 35 },
    );
  });
});
