import { BRACED_STAR } from './glob-braces.js';

/**
 * One path segment's glob (`*`, `?`, `[...]`, literal characters) as a test of one name, in time
 * bounded by the pattern's and the name's sizes: no backtracking. Characters are code points, as a
 * shell in a UTF-8 locale reads them: `?` takes "😀" whole, sets and ranges compare code points.
 *
 * The general test is a bit-parallel walk over the set of pattern positions (Shift-And with stars):
 * one machine word holds 32 positions, so a name costs name × ⌈pattern / 32⌉ word steps.
 */

type Token =
  | { kind: 'char'; code: number }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'set'; negated: boolean; ranges: number[] };

/** A segment's test: the common shapes (a literal name, `*`, `*.ts`, `test_*`, `a*b`) by string checks. */
export function segmentTest(segment: string): (name: string) => boolean {
  const tokens = parseSegment(segment);
  const stars = tokens.filter((t) => t.kind === 'star').length;
  if (tokens.every((t) => t.kind === 'char' || t.kind === 'star') && stars <= 1) {
    const at = tokens.findIndex((t) => t.kind === 'star');
    const text = (ts: readonly Token[]) =>
      ts.map((t) => String.fromCodePoint((t as { code: number }).code)).join('');
    if (at < 0) {
      const whole = text(tokens);
      return (name) => name === whole;
    }
    const head = text(tokens.slice(0, at));
    const tail = text(tokens.slice(at + 1));
    return (name) => name.length >= head.length + tail.length && name.startsWith(head) && name.endsWith(tail);
  }
  return tokens.length < 32 ? wordTest(tokens) : wordsTest(tokens);
}

const STAR = 0x2a;
const MARKED_STAR = BRACED_STAR.codePointAt(0)!;

function parseSegment(s: string): Token[] {
  const cps = Array.from(s, (c) => c.codePointAt(0)!);
  const tokens: Token[] = [];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    const end = c === 0x5b ? setEndOf(cps, i) : -1;
    if (c === STAR || c === MARKED_STAR) {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' }); // "**" in a segment is one star
    } else if (c === 0x3f) tokens.push({ kind: 'any' });
    else if (end > 0) {
      tokens.push(parseSet(cps, i, end));
      i = end;
    } else tokens.push({ kind: 'char', code: c });
  }
  return tokens;
}

/** The index of the `]` closing a set opened at cps[at], or -1 (a literal `[`). */
function setEndOf(cps: readonly number[], at: number): number {
  let i = at + 1;
  if (cps[i] === 0x21 || cps[i] === 0x5e) i++;
  for (let j = i + 1; j < cps.length; j++) if (cps[j] === 0x5d) return j;
  return -1;
}

/** The `[...]` set from cps[at] to its `]` at cps[end]. */
function parseSet(cps: readonly number[], at: number, end: number): Token {
  let i = at + 1;
  const negated = cps[i] === 0x21 || cps[i] === 0x5e;
  if (negated) i++;
  const ranges: number[] = []; // lo, hi pairs; a single character is lo = hi
  for (; i < end; i++) {
    const c = cps[i]!;
    if (cps[i + 1] === 0x2d && i + 2 < end) {
      ranges.push(c, cps[i + 2]!);
      i += 2;
    } else ranges.push(c, c);
  }
  return { kind: 'set', negated, ranges };
}

function inSet(t: { negated: boolean; ranges: number[] }, code: number): boolean {
  let found = false;
  for (let k = 0; k < t.ranges.length && !found; k += 2)
    found = code >= t.ranges[k]! && code <= t.ranges[k + 1]!;
  return found !== t.negated;
}

/**
 * Accept masks of characters past ASCII, cached per segment up to a bound (a name of many
 * distinct characters then costs a pattern-sized step each, as any character did before).
 */
function cachedBeyondAscii<T>(compute: (code: number) => T): (code: number) => T {
  const cache = new Map<number, T>();
  return (code) => {
    let v = cache.get(code);
    if (v === undefined) {
      v = compute(code);
      if (cache.size < 1024) cache.set(code, v);
    }
    return v;
  };
}

/** Bit p of a mask: token p takes the character. Stars are in no accept mask. */
function acceptBits(tokens: readonly Token[], code: number, word: number): number {
  let bits = 0;
  for (let p = word * 32; p < tokens.length && p < word * 32 + 32; p++) {
    const t = tokens[p]!;
    const takes =
      t.kind === 'any' || (t.kind === 'char' ? t.code === code : t.kind === 'set' && inSet(t, code));
    if (takes) bits |= 1 << (p & 31);
  }
  return bits;
}

function starBits(tokens: readonly Token[], word: number): number {
  let bits = 0;
  for (let p = word * 32; p < tokens.length && p < word * 32 + 32; p++)
    if (tokens[p]!.kind === 'star') bits |= 1 << (p & 31);
  return bits;
}

/**
 * Fewer than 32 tokens: positions 0..tokens.length in one int. A step takes each live
 * position whose token takes the character one on, keeps star positions, then lets each
 * star take nothing (no two stars are adjacent, so one shift closes over them).
 */
function wordTest(tokens: readonly Token[]): (name: string) => boolean {
  const star = starBits(tokens, 0);
  const ascii = new Int32Array(128);
  for (let c = 0; c < 128; c++) ascii[c] = acceptBits(tokens, c, 0);
  const beyond = cachedBeyondAscii((code) => acceptBits(tokens, code, 0));
  const start = 1 | ((1 & star) << 1);
  const final = 1 << tokens.length;
  return (name) => {
    let s = start;
    for (let i = 0; i < name.length; i++) {
      let code = name.charCodeAt(i);
      let accept: number;
      if (code < 128) accept = ascii[code]!;
      else {
        code = name.codePointAt(i)!; // a surrogate pair as one character, a lone one as itself
        if (code > 0xffff) i++;
        accept = beyond(code);
      }
      s = ((s & accept) << 1) | (s & star);
      if (s === 0) return false;
      s |= (s & star) << 1;
    }
    return (s & final) !== 0;
  };
}

/** 32 tokens or more: the same walk over several words, carrying the shifted-out bit. */
function wordsTest(tokens: readonly Token[]): (name: string) => boolean {
  const words = (tokens.length >> 5) + 1;
  const star = Int32Array.from({ length: words }, (_, w) => starBits(tokens, w));
  const ascii: Array<Int32Array | undefined> = new Array(128);
  const acceptOf = (code: number) =>
    Int32Array.from({ length: words }, (_, w) => acceptBits(tokens, code, w));
  const beyond = cachedBeyondAscii(acceptOf);
  const s = new Int32Array(words);
  const finalWord = tokens.length >> 5;
  const finalBit = 1 << (tokens.length & 31);
  return (name) => {
    s.fill(0);
    s[0] = 1 | ((1 & star[0]!) << 1);
    for (let i = 0; i < name.length; i++) {
      let code = name.charCodeAt(i);
      let accept: Int32Array;
      if (code < 128) accept = ascii[code] ??= acceptOf(code);
      else {
        code = name.codePointAt(i)!;
        if (code > 0xffff) i++;
        accept = beyond(code);
      }
      let carry = 0;
      let live = 0;
      for (let w = 0; w < words; w++) {
        const taken = s[w]! & accept[w]!;
        const next = (taken << 1) | carry | (s[w]! & star[w]!);
        carry = taken >>> 31;
        s[w] = next;
        live |= next;
      }
      if (live === 0) return false;
      carry = 0;
      for (let w = 0; w < words; w++) {
        const stars = s[w]! & star[w]!;
        s[w] = s[w]! | (stars << 1) | carry;
        carry = stars >>> 31;
      }
    }
    return (s[finalWord]! & finalBit) !== 0;
  };
}
