/**
 * A unified diff as an edit tool's result shows it to the model: at most
 * `maxChars` in all, and no line longer than LONG_LINE. The model wrote the
 * change itself, so the result only has to confirm what changed where; echoing a
 * 10 MB line (twice) or a 400,000-line `replace_all` back would flood its context
 * (the person's approval shows the whole diff). A long line keeps its start (the
 * +/- mark and, in edit_lines, its LINE#HASH anchor) and the stretch around where
 * it first differs from the line it replaces; what is left out is counted.
 */
export function diffForModel(diff: string, maxChars: number): string {
  if (diff.length <= Math.min(maxChars, LONG_LINE)) return diff;
  const lines = diff.split('\n');
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const shown = line.length > LONG_LINE ? shortened(line, partnerOf(lines, i)) : line;
    if (used + shown.length + 1 > maxChars - NOTE_ROOM) {
      const left = lines.length - i - (lines.at(-1) === '' ? 1 : 0);
      out.push(
        `[diff cut at ${used.toLocaleString('en')} characters: ${left.toLocaleString('en')} more line${left === 1 ? '' : 's'} not shown; read the file to see them]`,
      );
      return out.join('\n');
    }
    out.push(shown);
    used += shown.length + 1;
  }
  return out.join('\n');
}

/** Lines longer than this are shortened. */
const LONG_LINE = 1_000;
/** Characters of a long line kept from its start. */
const HEAD = 120;
/** Characters kept around where a long line first differs from its partner. */
const BEFORE = 200;
const AFTER = 400;
/** Room kept for the note that says the diff was cut. */
const NOTE_ROOM = 200;

/**
 * The line a removed or added line pairs with: the n-th `-` line of a run with the n-th
 * `+` line of the run right after it (and back). Undefined for a line without one.
 */
function partnerOf(lines: readonly string[], i: number): string | undefined {
  const mark = lines[i]![0];
  if (mark !== '-' && mark !== '+') return undefined;
  const other = mark === '-' ? '+' : '-';
  let start = i;
  while (start > 0 && lines[start - 1]![0] === mark) start--;
  const n = i - start;
  if (mark === '-') {
    let end = i;
    while (end < lines.length && lines[end]![0] === '-') end++;
    let j = end;
    while (j < end + n && j < lines.length && lines[j]![0] === other) j++;
    return j === end + n && lines[j]?.[0] === other ? lines[j] : undefined;
  }
  // An added line's removed run ends right before its own run starts.
  let first = start;
  while (first > 0 && lines[first - 1]![0] === other) first--;
  const j = first + n;
  return j < start ? lines[j] : undefined;
}

/** A long line: its start, then the stretch around its first difference from `partner`, the rest counted. */
function shortened(line: string, partner: string | undefined): string {
  let at = 1; // past the +/- mark
  if (partner !== undefined) {
    const max = Math.min(line.length, partner.length);
    while (at < max && line.charCodeAt(at) === partner.charCodeAt(at)) at++;
  } else at = HEAD;
  // Cuts fall between characters, never inside a surrogate pair (half of one is not text).
  const head = whole(line, HEAD);
  const from = whole(line, Math.max(head, at - BEFORE));
  const to = whole(line, Math.min(line.length, Math.max(from, at) + AFTER));
  const parts = [line.slice(0, head)];
  if (from > head) parts.push(cut(from - head));
  parts.push(line.slice(from, to));
  if (to < line.length) parts.push(cut(line.length - to));
  return parts.join('');
}

/** `at`, or one before it when `at` would split a surrogate pair. */
function whole(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return at > 0 && at < text.length && c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}

const cut = (n: number) => `[… ${n.toLocaleString('en')} characters …]`;
