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
  /** What the unit compares as: the folded character, or ' ' for a run of whitespace. */
  key: string;
  /** The unit's own text. */
  text: string;
  /** Units of one character folded to several (an ellipsis): kept only all together. */
  group: number;
}

/** The ASCII a typographic character folds to (undefined: not one). */
function foldOf(ch: string): string | undefined {
  if (ch.charCodeAt(0) < 0x80) return undefined;
  return SINGLE.find((c) => c.test.test(ch))?.ascii;
}

const SINGLE = TYPO_CLASSES.map((c) => ({ test: new RegExp(`^(?:${c.pattern.source})$`), ascii: c.ascii }));

/** Longer lines are left as the model wrote them: the character diff is bounded. */
const MAX_LINE = 4_000;
const DIFF_TIMEOUT_MS = 50;

function unitsOf(body: string): Unit[] {
  const out: Unit[] = [];
  for (let i = 0; i < body.length; ) {
    if (isSpace(body.charCodeAt(i))) {
      let j = i + 1;
      while (j < body.length && isSpace(body.charCodeAt(j))) j++;
      out.push({ key: ' ', text: body.slice(i, j), group: out.length });
      i = j;
      continue;
    }
    const ch = body[i]!;
    const folded = foldOf(ch) ?? ch;
    const group = out.length;
    for (let k = 0; k < folded.length; k++) out.push({ key: folded[k]!, text: k === 0 ? ch : '', group });
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

/**
 * The line to write for a changed line: `newLine` (the model's), with what it kept of
 * `oldLine` (the model's copy of `fileLine`) in the file's characters. `indent` is the
 * indentation to write (the model's, re-indented to the file when the match needed it).
 */
export function carryFileCharacters(
  oldLine: string,
  fileLine: string,
  newLine: string,
  indent: string,
  fix: (text: string) => string,
): string | undefined {
  if (!HAS_TYPOGRAPHY.test(fileLine)) return undefined;
  if (oldLine.length > MAX_LINE || fileLine.length > MAX_LINE || newLine.length > MAX_LINE) return undefined;
  const oldUnits = unitsOf(parts(oldLine)[1]);
  const fileUnits = unitsOf(parts(fileLine)[1]);
  if (oldUnits.length !== fileUnits.length || oldUnits.some((u, i) => u.key !== fileUnits[i]!.key))
    return undefined;
  const [, newBody, newTrail] = parts(newLine);
  const newUnits = unitsOf(newBody);
  const changes = diffArrays(
    oldUnits.map((u) => u.key),
    newUnits.map((u) => u.key),
    { timeout: DIFF_TIMEOUT_MS },
  );
  if (changes === undefined) return undefined;
  // new unit index → old unit index it keeps (-1: written by the model).
  const kept = new Int32Array(newUnits.length).fill(-1);
  let o = 0;
  let n = 0;
  let keptCount = 0;
  for (const c of changes) {
    if (c.removed) o += c.count;
    else if (c.added) n += c.count;
    else {
      for (let k = 0; k < c.count; k++) kept[n++] = o++;
      keptCount += c.count;
    }
  }
  if (keptCount * 2 < oldUnits.length) return undefined;
  // A file unit folded to several (…) is the file's only when all of it is kept, in order.
  const groupSize = new Int32Array(fileUnits.length);
  for (const u of fileUnits) groupSize[u.group]!++;
  const whole = (j: number): boolean => {
    const first = fileUnits[kept[j]!]!.group;
    const at = j - (kept[j]! - first);
    if (at < 0 || at + groupSize[first]! > newUnits.length) return false;
    for (let k = 0; k < groupSize[first]!; k++) if (kept[at + k] !== first + k) return false;
    return true;
  };
  let out = '';
  let model = '';
  for (let j = 0; j < newUnits.length; j++) {
    if (kept[j]! >= 0 && whole(j)) {
      out += fix(model) + fileUnits[kept[j]!]!.text;
      model = '';
    } else model += newUnits[j]!.text;
  }
  return indent + out + fix(model) + newTrail;
}
