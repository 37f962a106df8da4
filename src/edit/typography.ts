/**
 * Typographic character classes the unicode match level folds to ASCII. When the
 * match needed the fold, a class the request "prettified" (it has the typographic
 * form where the file has ASCII) is written back in the file's form in the lines
 * the request adds or changes — the model's ‘quotes’ must not end up in code.
 */
export interface TypoClass {
  name: 'single quotes' | 'double quotes' | 'dashes' | 'ellipses' | 'spaces';
  pattern: RegExp;
  ascii: string;
}

export const TYPO_CLASSES: readonly TypoClass[] = [
  { name: 'single quotes', pattern: /[\u2018\u2019\u201A\u201B\u2032\u00B4]/g, ascii: "'" },
  { name: 'double quotes', pattern: /[\u201C\u201D\u201E\u201F\u2033]/g, ascii: '"' },
  { name: 'dashes', pattern: /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, ascii: '-' },
  { name: 'ellipses', pattern: /\u2026/g, ascii: '...' },
  { name: 'spaces', pattern: /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ascii: ' ' },
];

const count = (line: string, c: TypoClass) => line.match(c.pattern)?.length ?? 0;
const has = (lines: readonly string[], c: TypoClass) => lines.some((l) => count(l, c) > 0);

export type TypoPlan =
  | { ok: true; fix: (line: string) => string }
  | { ok: false; className: TypoClass['name'] };

/**
 * How to write the request's added/changed lines for a match that needed the
 * unicode fold. `needle[i]` was matched to `window[i]`. A class is a slip when
 * some request line has more typographic characters of it than its file line.
 * A slipped class is folded to ASCII in the new lines when the matched file
 * region never uses its typographic form; when the region uses both forms the
 * intent is unknowable and the plan refuses (if the new lines use the class).
 */
export function typographyPlan(
  needle: readonly string[],
  window: readonly string[],
  fresh: readonly string[],
): TypoPlan {
  const fold: TypoClass[] = [];
  for (const c of TYPO_CLASSES) {
    const slipped = needle.some((l, i) => count(l, c) > count(window[i] ?? '', c));
    if (!slipped || !has(fresh, c)) continue;
    if (has(window, c)) return { ok: false, className: c.name };
    fold.push(c);
  }
  return {
    ok: true,
    fix: (line) => fold.reduce((out, c) => out.replace(c.pattern, c.ascii), line),
  };
}
