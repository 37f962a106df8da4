import type { GoldEdit } from './corpus.js';

export type ToolUnderTest = 'edit_file' | 'patch_file' | 'edit_lines';
export type Expectation = 'apply' | 'reject' | null;

/** How the model's request text is distorted (applied to canonical lines). */
interface RequestStyle {
  outdent?: boolean;
  spacesForTabs?: boolean;
  smartQuotesOnOldSide?: boolean;
  dropMiddleContext?: boolean;
  minimal?: boolean;
  hunkHeader?: 'right' | 'wrong-numbers' | 'wrong-counts' | 'no-numbers';
  lineHintOffset?: number;
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
  /** Compare ignoring trailing whitespace (the mistake itself is about trailing whitespace). */
  trailingInsensitive?: boolean;
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
    trailingInsensitive: true,
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
    request: { smartQuotesOnOldSide: true },
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

const CURLY: Record<string, string> = { "'": '\u2019', '"': '\u201d' };

/** Applies the request style to one canonical line (old side or new side). */
export function styleRequestLine(
  line: string,
  style: RequestStyle,
  side: 'old' | 'new',
  indentToDrop: number,
): string {
  let out = line;
  if (style.outdent) out = out.slice(Math.min(indentToDrop, /^ */.exec(out)![0].length));
  if (style.smartQuotesOnOldSide && side === 'old') out = out.replace(/['"]/g, (q) => CURLY[q]!);
  return out;
}
