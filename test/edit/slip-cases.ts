import fc from 'fast-check';

/**
 * Generated source files and intended edits, and the request a model sends for
 * them when it makes one copying slip. The slip reaches every line the model
 * copies from the file (old side and the kept lines of the new side); slips of
 * its frame (indentation, tabs, quotes, line endings) reach the lines it writes
 * anew as well.
 */
export type Slip =
  | 'trailing_whitespace'
  | 'indentation_shift'
  | 'indentation_unit'
  | 'tabs_vs_spaces'
  | 'typographic_quotes'
  | 'crlf';

export interface SourceLine {
  level: number;
  /** Text after the indentation; '' for a blank line. */
  body: string;
  trailing: string;
  /** Distinctive lines carry a unique id; structural ones ("}", blank) never change in an edit. */
  structural: boolean;
}

export type EditStep = { kind: 'keep' | 'del'; i: number } | { kind: 'add'; level: number; body: string };

export interface SlipCase {
  lines: SourceLine[];
  indent: { tabs: boolean; unit: number };
  eol: '\n' | '\r\n';
  finalNewline: boolean;
  /** The edited block: file lines [start, end). */
  start: number;
  end: number;
  steps: EditStep[];
  /**
   * Request form: width of a tab in spaces (tabs_vs_spaces; the model's spaces per level under
   * indentation_unit), column shift (indentation_shift), a final newline.
   */
  tabWidth: number;
  shift: number;
  requestFinalNewline: boolean;
}

const TEMPLATES = [
  (id: number) => `value_${id}_ = compute(${id});`,
  (id: number) => `call_${id}_('a', "b");`,
  (id: number) => `if (flag_${id}_) {`,
  (id: number) => `// note ${id}: it's "done" - mostly`,
  (id: number) => `return item_${id}_.name;`,
];
const STRUCTURAL = ['}', '', '});', '{', ''];
const FRESH = [
  (n: number) => `added_${n}_ = 'fresh';`,
  (n: number) => `log_${n}_("added");`,
  (n: number) => `next_${n}_();`,
];

const rawLine = fc.record({
  structural: fc.boolean(),
  template: fc.nat(4),
  level: fc.nat(3),
  trailing: fc.constantFrom('', '', '', ' ', '   ', '\t'),
});

export function renderIndent(level: number, indent: { tabs: boolean; unit: number }): string {
  return indent.tabs ? '\t'.repeat(level) : ' '.repeat(level * indent.unit);
}

export const slipCase: fc.Arbitrary<SlipCase> = fc
  .record({
    raw: fc.array(rawLine, { minLength: 1, maxLength: 24 }),
    tabs: fc.boolean(),
    unit: fc.constantFrom(2, 4),
    eol: fc.constantFrom('\n' as const, '\r\n' as const),
    finalNewline: fc.boolean(),
    tabWidth: fc.constantFrom(2, 4),
    shift: fc.constantFrom(-2, -1, 1, 2),
    requestFinalNewline: fc.boolean(),
  })
  .chain((base) => {
    const lines: SourceLine[] = base.raw.map((r, id) => {
      const body = r.structural ? STRUCTURAL[r.template]! : TEMPLATES[r.template]!(id);
      return { level: body === '' ? 0 : r.level, body, trailing: r.trailing, structural: r.structural };
    });
    // A block holding at least one distinctive line, so it has exactly one place in the file.
    const distinct = lines.flatMap((l, i) => (l.structural ? [] : [i]));
    if (distinct.length === 0)
      lines[0] = { level: 1, body: TEMPLATES[0]!(0), trailing: '', structural: false };
    const anchors = distinct.length === 0 ? [0] : distinct;
    return fc
      .record({
        anchor: fc.constantFrom(...anchors),
        before: fc.nat(4),
        after: fc.nat(4),
        fates: fc.array(fc.constantFrom('keep', 'keep', 'change', 'del'), { minLength: 30, maxLength: 30 }),
        adds: fc.array(fc.tuple(fc.nat(30), fc.nat(2), fc.nat(3)), { maxLength: 3 }),
      })
      .map(({ anchor, before, after, fates, adds }) => {
        // Blocks start and end on non-blank lines, as models copy them (an old_string that starts
        // with a bare newline is a different, substring-shaped request).
        let start = Math.max(0, anchor - before);
        let end = Math.min(lines.length, anchor + after + 1);
        while (lines[start]!.body === '') start++;
        while (lines[end - 1]!.body === '') end--;
        const steps: EditStep[] = [];
        let fresh = 0;
        for (let i = start; i < end; i++) {
          const fate = lines[i]!.structural ? 'keep' : fates[i - start]!;
          if (fate === 'keep') steps.push({ kind: 'keep', i });
          else steps.push({ kind: 'del', i });
          if (fate === 'change')
            steps.push({ kind: 'add', level: lines[i]!.level, body: FRESH[fresh % 3]!(fresh++) });
        }
        for (const [at, template, level] of adds)
          steps.splice(at % (steps.length + 1), 0, { kind: 'add', level, body: FRESH[template]!(fresh++) });
        // An edit must change something.
        if (!steps.some((s) => s.kind !== 'keep'))
          steps.push({ kind: 'add', level: lines[end - 1]!.level, body: FRESH[0]!(fresh++) });
        // A one-line file without a final newline shows no line ending to follow, and an empty
        // last line without one is no line at all.
        const last = lines.at(-1)!;
        const finalNewline =
          base.finalNewline || lines.length === 1 || (last.body === '' && last.trailing === '');
        return {
          ...base,
          finalNewline,
          lines,
          indent: { tabs: base.tabs, unit: base.unit },
          start,
          end,
          steps,
        };
      });
  });

const curl = (line: string) => {
  let single = 0;
  let double = 0;
  return line.replace(/['"]/g, (q) =>
    q === "'" ? (single++ % 2 === 0 ? '\u2018' : '\u2019') : double++ % 2 === 0 ? '\u201c' : '\u201d',
  );
};

/** The file's text of one line. */
export const fileLine = (c: SlipCase, l: SourceLine) =>
  l.body === '' ? l.trailing : renderIndent(l.level, c.indent) + l.body + l.trailing;

/** A whole text from lines, with the case's line ending and final-newline state. */
export function joinText(c: SlipCase, lines: readonly string[]): string {
  if (lines.length === 0) return '';
  return lines.join(c.eol) + (c.finalNewline ? c.eol : '');
}

export const original = (c: SlipCase) =>
  joinText(
    c,
    c.lines.map((l) => fileLine(c, l)),
  );

/** The file as the edit means it: kept lines untouched, new lines in the file's indentation. */
export function intended(c: SlipCase): string {
  const block = c.steps.flatMap((s) =>
    s.kind === 'keep'
      ? [fileLine(c, c.lines[s.i]!)]
      : s.kind === 'add'
        ? [renderIndent(s.level, c.indent) + s.body]
        : [],
  );
  const all = c.lines.map((l) => fileLine(c, l));
  return joinText(c, [...all.slice(0, c.start), ...block, ...all.slice(c.end)]);
}

/** How the model writes a line (level + body + trailing) under a slip: `copied` lines come from the file. */
function written(
  c: SlipCase,
  slip: Slip,
  level: number,
  body: string,
  trailing: string,
  copied: boolean,
): string {
  if (body === '') return slip === 'trailing_whitespace' || !copied ? '' : trailing;
  const tail = copied && slip !== 'trailing_whitespace' ? trailing : '';
  let indent = renderIndent(level, c.indent);
  if (slip === 'tabs_vs_spaces') indent = c.indent.tabs ? ' '.repeat(level * c.tabWidth) : '\t'.repeat(level);
  if (slip === 'indentation_unit') indent = ' '.repeat(level * c.tabWidth);
  if (slip === 'indentation_shift') {
    const shifted = indent.length + effectiveShift(c) * (c.indent.tabs ? 1 : c.indent.unit);
    indent = (c.indent.tabs ? '\t' : ' ').repeat(Math.max(0, shifted));
  }
  const text = indent + body + tail;
  return slip === 'typographic_quotes' ? curl(text) : text;
}

/**
 * The request: old and new sides as lines, plus how they are joined. With `once`,
 * the model slips only where it copies old text: the kept lines of its new side are
 * the file's text exactly (an inconsistent copy the tool must still see through).
 */
export function requestFor(c: SlipCase, slip: Slip, once = false) {
  const copy = (i: number) => {
    const l = c.lines[i]!;
    return written(c, slip, l.level, l.body, l.trailing, true);
  };
  const oldLines: string[] = [];
  const newLines: string[] = [];
  const hunk: string[] = [];
  for (const s of c.steps) {
    if (s.kind === 'add') {
      const line = written(c, slip, s.level, s.body, '', false);
      newLines.push(line);
      hunk.push(`+${line}`);
      continue;
    }
    oldLines.push(copy(s.i));
    if (s.kind === 'keep') newLines.push(once ? fileLine(c, c.lines[s.i]!) : copy(s.i));
    hunk.push(`${s.kind === 'keep' ? ' ' : '-'}${copy(s.i)}`);
  }
  // The CRLF slip: the request's line endings differ from the file's.
  const eol = slip === 'crlf' ? (c.eol === '\n' ? '\r\n' : '\n') : '\n';
  const end = c.requestFinalNewline ? eol : '';
  // A new side ending with a blank line needs the newline that ends it ("…\n\n"), or it reads
  // as a final newline; the old side never ends blank.
  const newEnd = newLines.at(-1) === '' ? eol : end;
  return {
    oldString: oldLines.join(eol) + end,
    newString: newLines.length === 0 ? '' : newLines.join(eol) + newEnd,
    diff: ['--- a/f', '+++ b/f', '@@ @@', ...hunk, ''].join(eol),
  };
}

/**
 * The case's shift in levels, limited so that it stays uniform: an outdent never cuts
 * into the text of the least indented line the model writes (copied or new).
 */
function effectiveShift(c: SlipCase): number {
  const levels = [
    ...c.lines
      .slice(c.start, c.end)
      .filter((l) => l.body !== '')
      .map((l) => l.level),
    ...c.steps.flatMap((s) => (s.kind === 'add' ? [s.level] : [])),
  ];
  const shift = Math.max(c.shift, -Math.min(...levels));
  return shift === 0 ? 1 : shift;
}

/** Whether the model copies an indented line: only then does writing tabs for spaces show in its copy. */
export function copiesIndentation(c: SlipCase): boolean {
  return c.lines.slice(c.start, c.end).some((l) => l.body !== '' && l.level > 0);
}

/**
 * Whether the model's copy shows its own indentation unit against the file's: a file indented
 * with spaces, another unit, and at least two indentation levels among the lines copied (with
 * one, how deep a new line under them is meant is a guess).
 */
export function showsIndentUnit(c: SlipCase): boolean {
  const levels = new Set(c.lines.slice(c.start, c.end).flatMap((l) => (l.body === '' ? [] : [l.level])));
  return !c.indent.tabs && c.tabWidth !== c.indent.unit && levels.size >= 2;
}

/** Whether the model copies a line with quotes: only then does curling them show in its copy. */
export function copiesQuotes(c: SlipCase): boolean {
  return c.lines.slice(c.start, c.end).some((l) => /['"]/.test(l.body));
}
