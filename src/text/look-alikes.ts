/**
 * Letters that pass for others. Two rules, both by Unicode property where they
 * can be: a word that mixes scripts (Latin with Cyrillic, Greek, …; judged on
 * Script_Extensions, with the Han + kana / Hangul / Bopomofo mixes of Japanese,
 * Korean and Chinese allowed), and a word made only of ASCII letters and
 * letters that look like ASCII ones (`раура`, `ｐａｙ`, a lone Cyrillic `а`).
 * The suspicious letters are marked `⟦…:Script⟧` wherever text is drawn and named in
 * a warning line, so `paypal` → `раураl` is never two rows that read the same.
 */

/** Non-ASCII letters drawn like ASCII ones (Cyrillic, Greek, a few Latin), plus fullwidth Latin. */
const LOOK_ALIKE: Record<string, string> = {};
const pairs =
  'аaвBеeоoрpсcуyхxѕsіiјjһhԁdԛqԝwӏlАAВBЕEКKМMНHОOРPСCТTХXУYЅSІIЈJԌGԚQԜWҮYӀI' +
  'αaοoνvιiκkρpτtυuχxΑAΒBΕEΖZΗHΙIΚKΜMΝNΟOΡPΤTΥYΧXϲcϳjϹC' +
  'ıiȷjɑaɡgℓlℐIℑIⅰiⅴvⅹxⅼlⅽcⅾdⅿm';
for (let i = 0; i < pairs.length; i += 2) LOOK_ALIKE[pairs[i]!] = pairs[i + 1]!;
for (let c = 0xff01; c <= 0xff5e; c++) LOOK_ALIKE[String.fromCodePoint(c)] = String.fromCodePoint(c - 0xfee0);

// Skeletons for look-alikes the rule below finds but no fold names (Armenian, small capitals, IPA, clicks).
const morePairs = 'օoոnսuհhզqցgԼLՕOՍUՏSᴏoᴄcᴠvᴡwᴢzɪiɩiꜱsǀlǃ!ʟLʀRɴNʏY';
for (let i = 0; i < morePairs.length; i += 2) LOOK_ALIKE[morePairs[i]!] ??= morePairs[i + 1]!;

/**
 * Blocks and scripts whose letters mostly pass for ASCII ones: IPA Extensions,
 * Phonetic Extensions (small capitals), Latin Extended-D, the Latin clicks
 * U+01C0–01C3, Letterlike Symbols, Cherokee, Lisu, Coptic. Cyrillic, Greek and
 * Armenian are judged letter by letter (the table above): whole words of them
 * are ordinary text, and a mix with Latin is caught as mixed scripts.
 */
const CONFUSABLE_BLOCKS =
  /[\u01c0-\u01c3\u0250-\u02af\u1d00-\u1dbf\ua720-\ua7ff\u2100-\u214f\p{Script=Cherokee}\p{Script=Lisu}\p{Script=Coptic}]/u;
const ASCII_ALNUM = /^[A-Za-z0-9]+$/;

const suspectCache = new Map<string, boolean>();
/**
 * Whether a non-ASCII letter or number may read as ASCII, by property rather than
 * by list: its NFKC or NFKD fold is ASCII (mathematical alphanumerics, Roman
 * numerals, `ſ`, fullwidth forms, ligatures), it comes from a block or script of
 * look-alikes, or it is in the table. Accented letters (`é` folds to `e` + a mark) are not.
 */
export function isLookAlike(ch: string): boolean {
  if (ch < '\u0080') return false;
  let hit = suspectCache.get(ch);
  if (hit === undefined) {
    hit =
      LOOK_ALIKE[ch] !== undefined ||
      ASCII_ALNUM.test(ch.normalize('NFKC')) ||
      ASCII_ALNUM.test(ch.normalize('NFKD')) ||
      CONFUSABLE_BLOCKS.test(ch);
    if (suspectCache.size < 10_000) suspectCache.set(ch, hit);
  }
  return hit;
}

/** The ASCII letter(s) `ch` reads as, when it is a look-alike (`?` when it has no known skeleton). */
export function lookAlikeOf(ch: string): string | undefined {
  if (LOOK_ALIKE[ch] !== undefined) return LOOK_ALIKE[ch];
  if (!isLookAlike(ch)) return undefined;
  const fold = ch.normalize('NFKC');
  return ASCII_ALNUM.test(fold) ? fold : ASCII_ALNUM.test(ch.normalize('NFKD')) ? ch.normalize('NFKD') : '?';
}

// The scripts a mixed word is judged on; a letter of any other script counts as 'other'.
const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Georgian',
  'Hangul',
  'Ethiopic',
  'Cherokee',
  'Canadian_Aboriginal',
  'Ogham',
  'Runic',
  'Khmer',
  'Mongolian',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
  'Yi',
  'Coptic',
  'Glagolitic',
  'Tifinagh',
  'Vai',
  'Lisu',
  'Osage',
  'Adlam',
  'Nko',
] as const;
const SCRIPT_TESTS = SCRIPTS.map((name) => ({ name, re: new RegExp(`\\p{Script_Extensions=${name}}`, 'u') }));
// Writing systems that mix scripts by design (UTS #39's Jpan, Kore, Hanb).
const COMBINED: Record<string, string[]> = {
  Han: ['Jpan', 'Kore', 'Hanb'],
  Hiragana: ['Jpan'],
  Katakana: ['Jpan'],
  Hangul: ['Kore'],
  Bopomofo: ['Hanb'],
};

const scriptCache = new Map<string, string[]>();
/** The scripts a letter may be written in (its Script_Extensions among SCRIPTS, else 'other'). */
function scriptsOf(ch: string): string[] {
  let s = scriptCache.get(ch);
  if (!s) {
    s = SCRIPT_TESTS.filter((t) => t.re.test(ch)).map((t) => t.name);
    if (s.length === 0) s = ['other'];
    s = [...s, ...s.flatMap((n) => COMBINED[n] ?? [])];
    if (scriptCache.size < 10_000) scriptCache.set(ch, s);
  }
  return s;
}

const WORD = /[\p{L}\p{M}\p{Nd}\p{Nl}_]+/gu;
// Letter-numbers count as letters: `Ⅰnit` (ROMAN NUMERAL ONE) is a word with a look-alike.
const LETTER = /[\p{L}\p{Nl}]/u;
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

export interface LookAlikeWord {
  word: string;
  /** Code-unit offset of the word in the text. */
  index: number;
  /** Code-unit offsets (within the word) of the letters to mark. */
  marked: number[];
  /** What is wrong: the word mixes scripts, or is made of look-alike letters. */
  kind: 'mixed scripts' | 'look-alike letters';
  /** Why, for the warning line: `Cyrillic in Latin word`, `Cyrillic letters that look like ASCII "a"`. */
  reason: string;
}

/** The suspicious words of one line (none for a plain-ASCII line, checked first and cheaply). */
function lookAlikeWords(text: string): LookAlikeWord[] {
  if (ASCII_ONLY.test(text)) return [];
  const found: LookAlikeWord[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (ASCII_ONLY.test(word)) continue;
    const hit = judge(word);
    if (hit) found.push({ word, index: m.index, ...hit });
  }
  return found;
}

function judge(word: string): Pick<LookAlikeWord, 'marked' | 'reason' | 'kind'> | undefined {
  const letters: Letter[] = [];
  for (let i = 0; i < word.length; ) {
    const ch = String.fromCodePoint(word.codePointAt(i)!);
    if (LETTER.test(ch)) letters.push({ ch, at: i, scripts: scriptsOf(ch) });
    i += ch.length;
  }
  // Mixed scripts: no script every letter can be written in.
  let common: string[] | undefined;
  for (const l of letters) common = common ? common.filter((s) => l.scripts.includes(s)) : l.scripts;
  if (!common || common.length > 0) return lookAlikesOnly(letters);
  const counts = new Map<string, number>();
  for (const l of letters) for (const s of l.scripts) counts.set(s, (counts.get(s) ?? 0) + 1);
  const main = counts.has('Latin') ? 'Latin' : [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const odd = letters.filter((l) => !l.scripts.includes(main));
  const names = [...new Set(odd.map((l) => l.scripts[0]!))];
  // Look-alikes of the main script are marked too (`ɑ` among Latin letters reads as `a`).
  const fakes = letters.filter((l) => isLookAlike(l.ch) && !odd.includes(l));
  return {
    kind: 'mixed scripts',
    marked: [...odd, ...fakes].map((l) => l.at),
    reason: `${names.join('/')} in ${main} word`,
  };
}

type Letter = { ch: string; at: number; scripts: string[] };

function lookAlikesOnly(letters: Letter[]): Pick<LookAlikeWord, 'marked' | 'reason' | 'kind'> | undefined {
  // Only ASCII letters and look-alikes, or any ASCII letter at all: look-alikes among them read
  // as the ASCII letters they are not.
  if (letters.some((l) => l.ch < '\u0080') || letters.every((l) => l.ch < '\u0080' || isLookAlike(l.ch))) {
    const fakes = letters.filter((l) => isLookAlike(l.ch));
    if (fakes.length > 0) {
      const names = [...new Set(fakes.map((l) => (l.ch >= '\uff01' ? 'fullwidth' : l.scripts[0]!)))];
      return {
        kind: 'look-alike letters',
        marked: fakes.map((l) => l.at),
        reason: `${names.join('/')} letters that look like ASCII "${fakes.map((l) => lookAlikeOf(l.ch)).join('')}"`,
      };
    }
  }
  return undefined;
}

/** Marks the suspicious letters of a line `⟦раура:Cyrillic⟧` (a run of marked letters shares one pair). */
export function markLookAlikes(text: string): string {
  const words = lookAlikeWords(text);
  if (words.length === 0) return text;
  const marked = new Set<number>();
  for (const w of words) for (const at of w.marked) marked.add(w.index + at);
  let out = '';
  // The open run's scripts: named at its end, so `о` (Cyrillic) and `ο` (Greek) differ on screen.
  let run: Set<string> | undefined;
  const close = () => {
    out += `:${[...run!].join('+')}⟧`;
    run = undefined;
  };
  for (let i = 0; i < text.length; ) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    const mark = marked.has(i);
    // Combining marks stay inside the run of the letter they belong to.
    const continues = run !== undefined && /^\p{M}$/u.test(ch);
    if (!mark && run && !continues) close();
    if (mark && !run) {
      out += '⟦';
      run = new Set();
    }
    if (mark) run!.add(ch >= '\uff01' && ch <= '\uff5e' ? 'fullwidth' : scriptsOf(ch)[0]!);
    out += ch;
    i += ch.length;
  }
  if (run) close();
  return out;
}

/**
 * Warning lines for the suspicious words of `lines` (at most `limit`, then a
 * count). `show` draws a word (the caller's sanitiser, which marks it too).
 */
export function lookAlikeWarnings(
  lines: Iterable<string>,
  show: (word: string) => string = markLookAlikes,
  limit = 3,
): string[] {
  const out: string[] = [];
  let more = 0;
  const seen = new Set<string>();
  for (const line of lines) {
    for (const w of lookAlikeWords(line)) {
      if (seen.has(w.word)) continue;
      seen.add(w.word);
      if (out.length < limit) out.push(`⚠ ${w.kind}: ${show(w.word)} (${w.reason})`);
      else more++;
    }
  }
  if (more > 0) out.push(`⚠ … and ${more} more word${more === 1 ? '' : 's'} with look-alike letters`);
  return out;
}
