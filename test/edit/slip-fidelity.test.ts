import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixUnifiedDiff } from '../../src/edit/fix-unified-diff.js';
import { replaceInText } from '../../src/edit/replace-in-text.js';
import { expectSplice } from '../helpers/splice.js';
import {
  copiesIndentation,
  copiesQuotes,
  intended,
  original,
  requestFor,
  type Slip,
  showsIndentUnit,
  slipCase,
} from './slip-cases.js';

// For each copying slip a model makes, edit_file and patch_file give exactly the intended file —
// the original with only the lines the edit changes changed, byte for byte — or refuse clearly.
// Every refusal is counted: the generated edits are unambiguous, so refusing them is a failure too.
// A slip the request happens not to show (old_string found exactly, not inside a line's
// whitespace) is an exact match, which is a plain str-replace: then that is the expected file.

function expected(
  text: string,
  want: string,
  request: { oldString: string; newString: string },
  level: string,
) {
  if (level !== 'exact') return want;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const fileEol = (s: string) => s.replaceAll('\r\n', '\n').replaceAll('\n', eol);
  return text.replace(fileEol(request.oldString), () => fileEol(request.newString));
}

const RUNS = 2_000;
const SLIPS: Slip[] = [
  'trailing_whitespace',
  'indentation_shift',
  'indentation_unit',
  'tabs_vs_spaces',
  'typographic_quotes',
  'crlf',
];

describe.each(SLIPS)('slip: %s', (slip) => {
  it('edit_file and patch_file write exactly the intended file', () => {
    fc.assert(
      fc.property(slipCase, (c) => {
        // A slip shows only where the model copies something it can get wrong.
        if (slip === 'tabs_vs_spaces') fc.pre(copiesIndentation(c));
        if (slip === 'typographic_quotes') fc.pre(copiesQuotes(c));
        if (slip === 'indentation_unit') fc.pre(showsIndentUnit(c));
        const text = original(c);
        const want = intended(c);
        const request = requestFor(c, slip);
        const edited = replaceInText(text, { ...request, replaceAll: false });
        if (!edited.ok) throw new Error(`edit_file refused: ${edited.code}: ${edited.message}`);
        expect(edited.newText).toBe(expected(text, want, request, edited.matchLevel));
        expectSplice(text, edited);
        const patched = fixUnifiedDiff(text, request.diff);
        if (!patched.ok) throw new Error(`patch_file refused: ${patched.message}`);
        expect(patched.newText).toBe(want);
        expectSplice(text, patched);
      }),
      { numRuns: RUNS },
    );
  });
});

// The same slip made once — in the old text only, the kept lines of the new text copied right —
// is seen through too (trailing whitespace and quotes: a changed indentation would be a change).
describe.each(['trailing_whitespace', 'typographic_quotes'] as const)('slip made once: %s', (slip) => {
  it('edit_file and patch_file write exactly the intended file', () => {
    fc.assert(
      fc.property(slipCase, (c) => {
        if (slip === 'typographic_quotes') fc.pre(copiesQuotes(c));
        const text = original(c);
        const want = intended(c);
        const request = requestFor(c, slip, true);
        const edited = replaceInText(text, { ...request, replaceAll: false });
        if (!edited.ok) throw new Error(`edit_file refused: ${edited.code}: ${edited.message}`);
        expect(edited.newText).toBe(expected(text, want, request, edited.matchLevel));
        expectSplice(text, edited);
        const patched = fixUnifiedDiff(text, request.diff);
        if (!patched.ok) throw new Error(`patch_file refused: ${patched.message}`);
        expect(patched.newText).toBe(want);
        expectSplice(text, patched);
      }),
      { numRuns: RUNS / 4 },
    );
  });
});
