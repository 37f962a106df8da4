export type HunkLineKind = ' ' | '-' | '+';

export interface HunkLine {
  kind: HunkLineKind;
  text: string;
}

export interface LooseHunk {
  /** 1-based hunk number in the request. */
  index: number;
  /** Old-side start from the @@ header, if it had a usable one (advisory only). */
  oldStart?: number;
  lines: HunkLine[];
}

const HUNK_HEADER = /^@@\s*(?:-(\d+)(?:,\d+)?)?\s*(?:\+\d+(?:,\d+)?)?\s*@@/;
const FILE_HEADER =
  /^(diff --git |index [0-9a-f]|new file mode|deleted file mode|similarity index|rename (from|to) |old mode|new mode)/;

/**
 * Parses a unified diff the way models actually write them: wrong or missing
 * @@ numbers and counts are ignored (positions are found by content later),
 * blank context lines that lost their leading space are accepted, and
 * `---`/`+++`/`diff`/`index` headers are skipped. A diff without any @@ line is
 * taken as one hunk.
 */
export function parseLooseDiff(diff: string): LooseHunk[] {
  const raw = diff.replaceAll('\r\n', '\n').split('\n');
  if (raw.at(-1) === '') raw.pop();
  const hunks: LooseHunk[] = [];
  let current: LooseHunk | undefined;
  const start = (oldStart?: number) => {
    current = { index: hunks.length + 1, ...(oldStart === undefined ? {} : { oldStart }), lines: [] };
    hunks.push(current);
  };
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    if (line.startsWith('@@')) {
      const m = HUNK_HEADER.exec(line);
      start(m?.[1] === undefined ? undefined : Number(m[1]));
      continue;
    }
    if (line.startsWith('--- ') && raw[i + 1]?.startsWith('+++ ')) {
      i++;
      current = undefined;
      continue;
    }
    if (FILE_HEADER.test(line) && (current === undefined || current.lines.length === 0)) continue;
    if (line.startsWith('\\')) continue; // "\ No newline at end of file": the file's own ending is kept
    if (!current) {
      if (line.startsWith('---') || line.startsWith('+++')) continue;
      start();
    }
    const kind = line[0];
    if (kind === ' ' || kind === '-' || kind === '+') current!.lines.push({ kind, text: line.slice(1) });
    else current!.lines.push({ kind: ' ', text: line }); // context that lost its leading space
  }
  return hunks.filter((h) => h.lines.some((l) => l.kind !== ' '));
}
