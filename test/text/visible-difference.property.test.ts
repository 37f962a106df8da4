import fc from 'fast-check';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import type { ApprovalPayload, PatchPayload } from '../../src/contract/payloads.js';
import { payloadText } from '../../src/mcp/payload-text.js';
import { PayloadView } from '../../src/react/index.js';
import { renderDiff } from '../../src/terminal/diff-view.js';
import { createStyle, stripAnsi } from '../../src/terminal/style.js';
import { isInvisible } from '../../src/text/invisible-chars.js';
import { lookAlikeOf } from '../../src/text/look-alikes.js';

// Issue 22: for any old ≠ new line, drawn from the whole code-point range (unassigned, ignorable,
// format, private-use, lone surrogates included) plus a pool of look-alikes, the removed and
// added rows differ visibly on every surface. "Visibly" is judged on what a reader sees: NFC
// (canonically equivalent text draws the same), look-alike letters read as their ASCII twins,
// and no invisible character left in the row.

const RUNS = 400;
// Characters that draw the same as, or nothing like, what they are.
const POOL = [
  'a',
  'а',
  'ɑ',
  'p',
  'р',
  'o',
  'о',
  'ο',
  'A',
  'А',
  'Α',
  'ａ',
  'e',
  'é',
  'e\u0301',
  '\u00c5',
  '\u212b',
  'A\u030a',
  '\u0301',
  ' ',
  '\t',
  '\u00a0',
  '\u3000',
  '\u200b',
  '\u200d',
  '\u2066',
  '\u202e',
  '\ufe0f',
  '\u0378',
  '\ufff0',
  '\u{e0080}',
  '\u{e01f0}',
  '\u0600',
  '\u06dd',
  '\u{110bd}',
  '\u{13430}',
  '\u3248',
  '\u115f',
  '\u2800',
  '\u00ad',
  '\ud800',
  '\u{f0000}',
  '\u2028',
  'l',
  'ӏ',
  '1',
];
const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((c) => c !== 0x0a && c !== 0x0d)
  .map((c) => String.fromCodePoint(c));
const piece = fc.oneof(
  anyCodePoint,
  fc.constantFrom(...POOL),
  fc.constantFrom('x', 'y', 'paypal', 'isAdmin'),
);
const line = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
/** A new line one edit away from the old one (or a fresh one): the hard cases are small changes. */
const pair = fc
  .tuple(line, fc.nat(), piece, fc.constantFrom('insert', 'delete', 'replace', 'fresh'), line)
  .map(([old, at, p, op, fresh]) => {
    const chars = [...old];
    const i = chars.length ? at % chars.length : 0;
    if (op === 'insert') chars.splice(i, 0, p);
    else if (op === 'delete') chars.splice(i, 1);
    else if (op === 'replace') chars.splice(i, 1, p);
    return [old, op === 'fresh' ? fresh : chars.join('')] as const;
  })
  .filter(([a, b]) => a !== b);

/** What a reader can tell apart: NFC, look-alikes read as ASCII. */
const seen = (row: string) => [...row.normalize('NFC')].map((ch) => lookAlikeOf(ch) ?? ch).join('');

function expectVisiblyDifferent(del: string, add: string): void {
  for (const row of [del, add]) for (const ch of row) expect(isInvisible(ch), `${row}`).toBe(false);
  expect(seen(del)).not.toBe(seen(add));
}

const diffOf = (a: string, b: string) => `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${a}\n+${b}\n`;
const payloadOf = (a: string, b: string): PatchPayload => ({
  type: 'patch',
  description: 'patch /x',
  path: '/x',
  mount: '/',
  baseSha256: 'x',
  unifiedDiff: diffOf(a, b),
  requestedDiff: diffOf(a, b),
  diffLines: 5,
  added: 1,
  removed: 1,
  relocated: false,
  hunks: 1,
  fileExists: true,
  fileLines: 1,
  fileBytes: 1,
});

const decode = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&');

/** Known cases first (the issue's), then the generated ones. */
const EXAMPLES: [string, string][] = [
  ['paypal.com', 'раураl.com'],
  ['isAdmin', 'isАdmin'],
  ['x = 1', 'x\u0378= 1'],
  ['a', 'a\ufff0'],
  ['é', 'e\u0301'],
  ['\u00c5', '\u212b'],
  ['if (a)\treturn', 'if (a)    return'],
  ['a', 'a '],
];
const examples = fc.constantFrom(...EXAMPLES);

describe('old ≠ new rows differ visibly, for any Unicode', () => {
  it(`terminal renderer (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(fc.oneof(examples, pair, pair, pair), ([a, b]) => {
        const rows = renderDiff(diffOf(a, b), createStyle(true), 400).map(stripAnsi);
        // "  1     -text": gutter (old, new), then the sign.
        expectVisiblyDifferent(rows[1]!.slice(9), rows[2]!.slice(9));
      }),
      { numRuns: RUNS },
    );
  });

  it(`React renderer, renderToStaticMarkup (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(fc.oneof(examples, pair, pair, pair), ([a, b]) => {
        const html = renderToStaticMarkup(
          createElement(PayloadView, { payload: payloadOf(a, b) as ApprovalPayload }),
        );
        const text = (kind: string) => {
          const row = new RegExp(`data-kind="${kind}">(.*?)</div>`).exec(html)?.[1] ?? '';
          return decode(/<span class="sa-text">(.*)<\/span>$/.exec(row)?.[1] ?? '');
        };
        expectVisiblyDifferent(text('del'), text('add'));
      }),
      { numRuns: RUNS },
    );
  });

  it(`MCP dialog text (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(fc.oneof(examples, pair, pair, pair), ([a, b]) => {
        const request: ApprovalRequest = {
          toolName: 'patch_file',
          args: {},
          description: 'patch /x',
          payload: payloadOf(a, b),
        };
        const lines = payloadText(request).split('\n');
        const rows = lines.filter((l) => /^ {2}1 {5}-|^ {6}1 \+/.test(l));
        expect(rows).toHaveLength(2);
        // Without colour the changed words are bracketed [-…-] / {+…+}: read past the brackets.
        const unmark = (r: string) => r.slice(9).replace(/\[-|-\]|\{\+|\+\}/g, '');
        expectVisiblyDifferent(unmark(rows[0]!), unmark(rows[1]!));
      }),
      { numRuns: RUNS },
    );
  });
});
