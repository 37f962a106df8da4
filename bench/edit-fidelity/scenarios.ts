import type { GoldEdit } from './corpus.js';

export type ToolUnderTest = 'edit_file' | 'patch_file' | 'edit_lines';
export type Expectation = 'apply' | 'reject' | null;

/**
 * How the model's request text is distorted. A model that slips while copying makes the slip
 * everywhere it writes the file's text: in old_string (or context and - lines) AND in the lines
 * of new_string it means to keep; indentation and quote slips also reach the lines it writes anew.
 */
export interface RequestStyle {
  outdent?: boolean;
  spacesForTabs?: boolean;
  smartQuotes?: boolean;
  dropMiddleContext?: boolean;
  minimal?: boolean;
  hunkHeader?: 'right' | 'wrong-numbers' | 'wrong-counts' | 'no-numbers';
  lineHintOffset?: number;
  /** edit_lines: anchor on a low-entropy line instead of the gold target (see anchorTarget in replay). */
  anchorOn?: 'blank' | 'brace' | 'unique-hash';
  /** edit_lines: write the advisory line into the anchor itself ("LINE#HASH") instead of `line`. */
  lineInAnchor?: boolean;
}

/** A simulated model mistake: how the disk looks at read and at call time, and how the request is written. */
export interface Scenario {
  name: string;
  /** Transforms the canonical file into what is on disk when the model reads it. */
  diskAtRead: (lines: string[], edit: GoldEdit) => { lines: string[]; eol: '\n' | '\r\n'; tabs: boolean };
  /** Changes made on disk after the read (by "someone else"); returns the new lines and the target's new index. */
  afterRead?: (
    lines: string[],
    target: number,
  ) => { lines: string[]; target: number; targetChanged?: boolean };
  request: RequestStyle;
  expect: Record<ToolUnderTest, Expectation>;
}

const same = (lines: string[]) => ({ lines, eol: '\n' as const, tabs: false });
const all = (e: Expectation): Record<ToolUnderTest, Expectation> => ({
  edit_file: e,
  patch_file: e,
  edit_lines: e,
});

export const SCENARIOS: Scenario[] = [
  { name: 'no mistake (control)', diskAtRead: same, request: {}, expect: all('apply') },
  {
    name: 'wrong @@ line numbers',
    diskAtRead: same,
    request: { hunkHeader: 'wrong-numbers' },
    expect: { edit_file: null, patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'wrong @@ counts',
    diskAtRead: same,
    request: { hunkHeader: 'wrong-counts' },
    expect: { edit_file: null, patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'no usable @@ numbers',
    diskAtRead: same,
    request: { hunkHeader: 'no-numbers' },
    expect: { edit_file: null, patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'stale file (lines inserted above)',
    diskAtRead: same,
    afterRead: (lines, target) => ({
      lines: ['// a', '// b', '// c', '// d', '// e', ...lines],
      target: target + 5,
    }),
    request: {},
    // patch_file is hash-guarded: a stale base must be refused (state_mismatch), never applied.
    expect: { edit_file: 'apply', patch_file: 'reject', edit_lines: 'apply' },
  },
  {
    name: 'trailing whitespace in file, not in request',
    diskAtRead: (lines, e) => same(lines.map((l, i) => (Math.abs(i - e.target) <= 3 ? `${l}   ` : l))),
    request: {},
    expect: all('apply'),
  },
  {
    name: 'request outdented',
    diskAtRead: same,
    request: { outdent: true },
    expect: { edit_file: 'apply', patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'tabs in file, spaces in request',
    diskAtRead: (lines) => ({ lines: lines.map(tabify), eol: '\n', tabs: true }),
    request: { spacesForTabs: true },
    expect: { edit_file: 'apply', patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'smart quotes in request',
    diskAtRead: same,
    request: { smartQuotes: true },
    expect: { edit_file: 'apply', patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'CRLF file, LF request',
    diskAtRead: (lines) => ({ lines, eol: '\r\n', tabs: false }),
    request: {},
    expect: all('apply'),
  },
  {
    name: 'missing middle context line',
    diskAtRead: same,
    request: { dropMiddleContext: true },
    // edit_file: an old_string with a line missing matches nothing and must be refused.
    expect: { edit_file: 'reject', patch_file: 'apply', edit_lines: null },
  },
  {
    name: 'target line changed after read',
    diskAtRead: same,
    afterRead: (lines, target) => ({
      lines: lines.map((l, i) => (i === target ? `${l} // changed by the user` : l)),
      target,
      targetChanged: true,
    }),
    request: {},
    expect: all('reject'),
  },
  {
    name: 'wrong advisory line number',
    diskAtRead: same,
    request: { lineHintOffset: 7 },
    expect: { edit_file: null, patch_file: null, edit_lines: 'apply' },
  },
  {
    name: 'wrong LINE in LINE#HASH, hash unique in file',
    diskAtRead: same,
    request: { anchorOn: 'unique-hash', lineHintOffset: 7, lineInAnchor: true },
    expect: { edit_file: null, patch_file: null, edit_lines: 'apply' },
  },
  {
    name: 'anchor on a blank line, file unchanged',
    // The corpus files have few blank lines: one follows every lone "}" here (anchors are never unique).
    diskAtRead: (lines) => same(lines.flatMap((l) => (l.trim() === '}' ? [l, ''] : [l]))),
    request: { anchorOn: 'blank', lineInAnchor: true },
    expect: { edit_file: null, patch_file: null, edit_lines: 'apply' },
  },
  {
    name: 'anchor on a lone }, file unchanged',
    diskAtRead: same,
    request: { anchorOn: 'brace', lineInAnchor: true },
    expect: { edit_file: null, patch_file: null, edit_lines: 'apply' },
  },
  {
    name: 'stale read + identical twin line',
    diskAtRead: same,
    afterRead: (lines, target) => {
      const twinAt = Math.max(0, target - 10);
      const out = [...lines.slice(0, twinAt), lines[target]!, ...lines.slice(twinAt)];
      return { lines: out, target: target + 1 };
    },
    request: {},
    expect: { edit_file: 'apply', patch_file: 'reject', edit_lines: 'apply' },
  },
  {
    name: 'minimal old_string / zero-context hunk',
    diskAtRead: same,
    request: { minimal: true },
    expect: { edit_file: 'apply', patch_file: 'apply', edit_lines: null },
  },
];

function tabify(line: string): string {
  const m = /^( {2})+/.exec(line);
  return m ? '\t'.repeat(m[0].length / 2) + line.slice(m[0].length) : line;
}

/** Curls ASCII quotes the way a "prettifying" model does: opening and closing forms, alternating. */
function curl(line: string): string {
  let single = 0;
  let double = 0;
  return line.replace(/['"]/g, (q) =>
    q === "'" ? (single++ % 2 === 0 ? '\u2018' : '\u2019') : double++ % 2 === 0 ? '\u201c' : '\u201d',
  );
}

/** Applies the request style to one line the model writes (copied from the file or written anew). */
export function styleRequestLine(line: string, style: RequestStyle, indentToDrop: number): string {
  let out = line;
  if (style.outdent) out = out.slice(Math.min(indentToDrop, /^ */.exec(out)![0].length));
  if (style.smartQuotes) out = curl(out);
  return out;
}
