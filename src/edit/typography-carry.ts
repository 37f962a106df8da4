import { diffArrays } from 'diff';
import { isSpace } from './normalize-line.js';
import { TYPO_CLASSES } from './typography.js';

/**
 * A line the request changed, at the unicode level, keeps the file's own characters
 * in the part the model left as it was: `say(“don’t”);` asked as `say("don't");` →
 * `say("don't", "won't");` is written `say(“don’t”, "won't");`. Without this the
 * whole line took the model's ASCII text and the file's quotes were straightened
 * where nobody asked.
 *
 * The model's old line and the file's line are equal under the unicode fold, so they
 * align unit by unit (a character, folded; a run of whitespace; an ellipsis as its
 * three dots). The model's old and new lines are diffed in those units: a unit the
 * diff keeps is written as the file has it, a unit the model wrote is written as the
 * model wrote it (after `fix`, the fold of prettified characters). A line rewritten
 * more than it was kept is the model's own text, untouched.
 */

interface Unit {
  /** What the unit compares as against the file: the folded character, or ' ' for a run of whitespace. */
  key: string;
  /** What it compares as between the model's old and new line: its own text (a run's exact spaces). */
  own: string;
  /** The unit's own text ('' for the second and third dot of an ellipsis). */
  text: string;
  /** The index of the first unit of its character (an ellipsis is three units, kept only all together). */
  group: number;
}

/** The ASCII a typographic character folds to (undefined: not one). */
function foldOf(ch: string): string | undefined {
  if (ch.charCodeAt(0) < 0x80) return undefined;
  return SINGLE.find((c) => c.test.test(ch))?.ascii;
}

const SINGLE = TYPO_CLASSES.map((c) => ({ test: new RegExp(`^(?:${c.pattern.source})$`), ascii: c.ascii }));

/** Longer lines are left as the model wrote them (a unit is an object per character). */
const MAX_LINE = 100_000;
const DIFF_TIMEOUT_MS = 50;

function unitsOf(body: string): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < body.length; ) {
    if (isSpace(body.charCodeAt(i))) {
      let j = i + 1;
      while (j < body.length && isSpace(body.charCodeAt(j))) j++;
      const text = body.slice(i, j);
      out.push({ key: ' ', own: text, text, group: out.length });
      i = j;
      continue;
    }
    const ch = body[i]!;
    const folded = foldOf(ch) ?? ch;
    const group = out.length;
    for (let k = 0; k < folded.length; k++)
      out.push({
        key: folded[k]!,
        own: folded.length > 1 ? `${ch}${k}` : ch,
        text: k === 0 ? ch : '',
        group,
      });
    i++;
  }
  return out;
}

/** The line's leading whitespace, its body and its trailing whitespace (U+FEFF is not whitespace). */
function parts(line: string): [string, string, string] {
  let a = 0;
  while (a < line.length && isSpace(line.charCodeAt(a))) a++;
  let b = line.length;
  while (b > a && isSpace(line.charCodeAt(b - 1))) b--;
  return [line.slice(0, a), line.slice(a, b), line.slice(b)];
}

const HAS_TYPOGRAPHY = new RegExp(TYPO_CLASSES.map((c) => c.pattern.source).join('|'));

/** Whether a file line has characters a carry could keep (most lines have none, and are skipped). */
export function hasTypography(line: string): boolean {
  return HAS_TYPOGRAPHY.test(line);
}

/** Units kept in order from `units[j]` on, all of one character's: the whole character is kept. */
function wholeGroups(units: readonly Unit[], keep: Uint8Array): void {
  for (let j = 0; j < units.length; ) {
    let end = j + 1;
    while (end < units.length && units[end]!.group === units[j]!.group) end++;
    let all = true;
    for (let k = j; k < end; k++) all &&= keep[k] === 1;
    if (!all) keep.fill(0, j, end);
    j = end;
  }
}

export interface Carried {
  text: string;
  /** Units of the model's old line kept, and their share of it (0–1): how surely `newLine` is that line changed. */
  units: number;
  kept: number;
}

/**
 * The line to write for a changed line: `newLine` (the model's), with what it kept of
 * `oldLine` (the model's copy of `fileLine`) in the file's characters. `adjusted` is the
 * line as it would be written without this (re-indented to the file when the match needed
 * it): its indentation is written, unless the model kept its old line's indentation, which
 * is then the file's. Undefined when the lines cannot be aligned, or the model kept less
 * than half of the line.
 */
export function carryFileCharacters(
  oldLine: string,
  fileLine: string,
  newLine: string,
  adjusted: string,
  fix: (text: string) => string,
): Carried | undefined {
  if (oldLine.length > MAX_LINE || fileLine.length > MAX_LINE || newLine.length > MAX_LINE) return undefined;
  const [oldIndent, oldBody] = parts(oldLine);
  const [fileIndent, fileBody] = parts(fileLine);
  const oldUnits = unitsOf(oldBody);
  const fileUnits = unitsOf(fileBody);
  if (oldUnits.length !== fileUnits.length || oldUnits.some((u, i) => u.key !== fileUnits[i]!.key))
    return undefined;
  const [newIndent, newBody, newTrail] = parts(newLine);
  const newUnits = unitsOf(newBody);
  const kept = keptUnits(oldUnits, newUnits);
  if (kept === undefined) return undefined;
  // A character is kept only whole, on both sides: the file's … only with all its dots kept, the
  // model's … only when all of it stands for the old line's.
  const keepNew = new Uint8Array(newUnits.length);
  const keepFile = new Uint8Array(fileUnits.length);
  const newOf = new Int32Array(fileUnits.length).fill(-1);
  for (let j = 0; j < newUnits.length; j++) {
    if (kept[j]! < 0) continue;
    keepNew[j] = 1;
    keepFile[kept[j]!] = 1;
    newOf[kept[j]!] = j;
  }
  // The file's … is kept only as the model's three dots side by side.
  for (let i = 1; i < fileUnits.length; i++)
    if (fileUnits[i]!.group !== i && newOf[i] !== newOf[i - 1]! + 1) keepFile[i] = 0;
  wholeGroups(fileUnits, keepFile);
  for (let j = 0; j < newUnits.length; j++) if (kept[j]! >= 0 && keepFile[kept[j]!] === 0) keepNew[j] = 0;
  wholeGroups(newUnits, keepNew);
  let keptCount = 0;
  for (let j = 0; j < newUnits.length; j++) keptCount += keepNew[j]!;
  if (oldUnits.length === 0 || keptCount * 2 < oldUnits.length) return undefined;
  let out = '';
  let model = '';
  for (let j = 0; j < newUnits.length; j++) {
    if (keepNew[j] === 1) {
      out += fix(model) + fileUnits[kept[j]!]!.text;
      model = '';
    } else model += newUnits[j]!.text;
  }
  const indent = newIndent === oldIndent ? fileIndent : parts(adjusted)[0];
  return { text: indent + out + fix(model) + newTrail, units: keptCount, kept: keptCount / oldUnits.length };
}

/**
 * new unit index → the old unit it keeps (-1: written by the model): a diff of the two
 * lines' own texts, after their common head and tail (a long line changed in one place
 * costs a pass). Undefined when the diff ran out of time.
 */
function keptUnits(oldUnits: readonly Unit[], newUnits: readonly Unit[]): Int32Array | undefined {
  const kept = new Int32Array(newUnits.length).fill(-1);
  let head = 0;
  while (head < oldUnits.length && head < newUnits.length && oldUnits[head]!.own === newUnits[head]!.own)
    kept[head] = head++;
  let tail = 0;
  while (
    tail < oldUnits.length - head &&
    tail < newUnits.length - head &&
    oldUnits[oldUnits.length - 1 - tail]!.own === newUnits[newUnits.length - 1 - tail]!.own
  ) {
    kept[newUnits.length - 1 - tail] = oldUnits.length - 1 - tail;
    tail++;
  }
  const changes = diffArrays(
    oldUnits.slice(head, oldUnits.length - tail).map((u) => u.own),
    newUnits.slice(head, newUnits.length - tail).map((u) => u.own),
    { timeout: DIFF_TIMEOUT_MS },
  );
  if (changes === undefined) return undefined;
  let o = head;
  let n = head;
  for (const c of changes) {
    if (c.removed) o += c.count;
    else if (c.added) n += c.count;
    else for (let k = 0; k < c.count; k++) kept[n++] = o++;
  }
  return kept;
}
