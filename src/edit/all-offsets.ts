/** Needles at least this long are looked for through a rare word of theirs. */
const LONG = 64;
/** Words tried, longest first. */
const WORDS_TRIED = 4;
/** A word found at most this often is rare enough: each of its hits is checked in place. */
const RARE = 4;
/** Shorter words are too common to narrow anything down. */
const MIN_WORD = 3;
const WORD = new RegExp(`\\S{${MIN_WORD},}`, 'g');

/**
 * Every start offset of `needle` in `haystack`, overlapping ones included, ascending.
 * A long needle is found through a rare word of its own: indexOf of a long needle can
 * advance a character or two at a time when the text is made of the needle's own
 * characters (a file of `}` lines, a request of `}` lines ending in one other line),
 * while a word the text seldom has is skipped to directly. Each hit of the word is
 * checked in place, so the answer is the same.
 */
export function allOffsets(haystack: string, needle: string): number[] {
  const found = needle.length >= LONG ? throughRareWord(haystack, needle) : undefined;
  if (found) return found;
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

function throughRareWord(haystack: string, needle: string): number[] | undefined {
  for (const { word, at } of longestWords(needle)) {
    const hits: number[] = [];
    let p = haystack.indexOf(word, at);
    for (; p !== -1 && hits.length <= RARE; p = haystack.indexOf(word, p + 1)) hits.push(p);
    if (p !== -1 || hits.length > RARE) continue; // common: try the next word
    return hits.map((h) => h - at).filter((start) => haystack.startsWith(needle, start));
  }
  return undefined;
}

/** Characters of the needle its words are taken from (any part of it at a known place will do). */
const WORDS_FROM = 1 << 16;

/** The needle's longest distinct words (runs without whitespace) with where each first is. */
function longestWords(needle: string): Array<{ word: string; at: number }> {
  const words: Array<{ word: string; at: number }> = [];
  const seen = new Set<string>();
  // Only runs long enough are matched: a request of a thousand `}` lines yields no match objects.
  for (const m of needle.slice(0, WORDS_FROM).matchAll(WORD)) {
    if (seen.has(m[0])) continue;
    seen.add(m[0]);
    words.push({ word: m[0], at: m.index });
  }
  return words.sort((a, b) => b.word.length - a.word.length).slice(0, WORDS_TRIED);
}
