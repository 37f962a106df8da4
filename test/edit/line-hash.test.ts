import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderHashedLines, renderHashedText } from '../../src/edit/hashed-render.js';
import { contextHash, contextHashesAt, lineHash } from '../../src/edit/line-hash.js';

// Values pinned from the implementation that anchors were first handed out with:
// anchors already given to models must stay valid, so these must never change.
const PINNED: Array<[string, string, string, string]> = [
  // [line, lineHash(line), lineHash(line, 8), lineHash(line, 16)]
  ['', '5db4a5', '5db4a501', '5db4a501019a09f5'],
  ['}', '0b3b65', '0b3b6555', '0b3b65551188d6e4'],
  ['  const value1 = compute(1, "item-1");', 'b4fd64', 'b4fd6450', 'b4fd645069883bf0'],
  ['trailing   \t', 'ae2630', 'ae26309a', 'ae26309a04cb200d'],
  ['\ttab indented', '748640', '74864063', '748640635545388e'],
  ['héllo wörld — “quotes”', 'd4b912', 'd4b91255', 'd4b9125504386a39'],
  ['emoji 😀 line', '9075e8', '9075e85a', '9075e85abf864349'],
  ['   ', '5db4a5', '5db4a501', '5db4a501019a09f5'],
  ['x'.repeat(300), 'bb82ce', 'bb82cec4', 'bb82cec4e493e578'],
  ['line with \u00a0nbsp\u00a0', 'b4c865', 'b4c8652a', 'b4c8652a4d981fc1'],
  // Unicode whitespace counts as trailing whitespace exactly as String#trimEnd sees it.
  ['a\u00a0', '579640', '579640c7', '579640c796c7f997'],
  ['a\u3000\u2028\ufeff', '579640', '579640c7', '579640c796c7f997'],
  ['a\v\f', '579640', '579640c7', '579640c796c7f997'],
  ['a\u1680', '579640', '579640c7', '579640c796c7f997'],
  ['a \u200b', '23d9cc', '23d9ccff', '23d9ccff028d39f0'],
  ['a\u180e', 'b7b0f8', 'b7b0f8d7', 'b7b0f8d778198b96'],
];

const LINES = ['function a() {', '  return 1;', '', '}', '  return 1;  ', 'end'];
// [contextHash(LINES, i), contextHash(LINES, i, 16)]
const PINNED_CONTEXT: Array<[string, string]> = [
  ['ae560679', 'ae5606792fbd59a0'],
  ['95177b89', '95177b89d06cd03f'],
  ['cf2af5b5', 'cf2af5b584836eec'],
  ['0c083732', '0c0837329c561545'],
  ['35c95739', '35c95739561f0ed0'],
  ['bb719ef9', 'bb719ef9cb5ac817'],
];

/** The original 32-bit lane, kept here as the reference the optimised code must agree with. */
function referenceHash32(line: string): string {
  const text = line.trimEnd();
  let a = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  return (a >>> 0).toString(16).padStart(8, '0');
}

describe('line hashes are stable', () => {
  it.each(PINNED)('%j keeps its pinned hashes', (line, six, eight, sixteen) => {
    expect(lineHash(line)).toBe(six);
    expect(lineHash(line, 8)).toBe(eight);
    expect(lineHash(line, 4)).toBe(six.slice(0, 4));
    expect(lineHash(line, 16)).toBe(sixteen);
    expect(lineHash(line, 12)).toBe(sixteen.slice(0, 12));
  });

  it('keeps the pinned context hashes', () => {
    PINNED_CONTEXT.forEach(([eight, sixteen], i) => {
      expect(contextHash(LINES, i)).toBe(eight);
      expect(contextHash(LINES, i, 6)).toBe(eight.slice(0, 6));
      expect(contextHash(LINES, i, 16)).toBe(sixteen);
    });
  });

  it('renders hashed lines exactly as before', () => {
    expect(renderHashedLines(LINES, 7)).toBe(
      '7#c314eb|function a() {\n8#817f53|  return 1;\n9#5db4a5|\n10#0b3b65|}\n11#817f53|  return 1;  \n12#f802ac|end',
    );
  });

  it('trims exactly the code units String#trimEnd trims', () => {
    for (let c = 0; c <= 0xffff; c++) {
      const line = `a${String.fromCharCode(c)}`;
      expect(lineHash(line, 8)).toBe(referenceHash32(line));
    }
  });

  it('agrees with the reference hash on arbitrary lines (trailing whitespace included)', () => {
    const tail = fc.constantFrom(
      '',
      ' ',
      '\t',
      '\u00a0',
      '\u3000',
      '\ufeff',
      '\u2028',
      '\u200b',
      ' \t ',
      '\r',
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), tail, (body, end) => {
        const line = body + end;
        expect(lineHash(line, 8)).toBe(referenceHash32(line));
        expect(lineHash(line)).toBe(referenceHash32(line).slice(0, 6));
      }),
    );
  });

  it('renders ASCII and non-ASCII text exactly like the line-by-line reference', () => {
    const reference = (lines: string[], start: number) =>
      lines.map((l, i) => `${start + i}#${referenceHash32(l).slice(0, 6)}|${l}`).join('\n');
    const line = fc.oneof(
      fc.constantFrom('', '}', '  x = 1;  ', '\tb\r', 'é', '😀 ok\u00a0'),
      fc.string({ maxLength: 20 }).map((s) => s.replaceAll('\n', '')),
      fc.string({ unit: 'binary', maxLength: 20 }).map((s) => s.replaceAll('\n', '')),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 2_000 }),
        (lines, start) => {
          expect(renderHashedLines(lines, start)).toBe(reference(lines, start));
          const text = lines.join('\n');
          const rendered = renderHashedText(text, start);
          expect(rendered.content).toBe(reference(lines, start));
          expect([...rendered.hashes]).toEqual(lines.map((l) => Number.parseInt(referenceHash32(l), 16)));
          // Known hashes are used as given, on both the ASCII and the general path.
          const known = rendered.hashes.map((h) => h ^ 0xff000000);
          for (const ascii of [true, false]) {
            if (ascii && Buffer.byteLength(text) !== text.length) continue;
            const again = renderHashedText(text, start, { known, ascii, lines: lines.length });
            expect(again.content).toBe(
              reference(lines, start).replace(
                /^(\d+#)(..)/gm,
                (_m, n: string, top: string) =>
                  n + (Number.parseInt(top, 16) ^ 0xff).toString(16).padStart(2, '0'),
              ),
            );
          }
        },
      ),
    );
    const ascii = Array.from({ length: 12 }, (_, i) => `line ${i}  `);
    expect(renderHashedLines(ascii, 9_995)).toBe(reference(ascii, 9_995));
    expect(renderHashedLines([], 1)).toBe('');
    expect(renderHashedText('', 5).content).toBe('5#5db4a5|');
  });
});

describe('contextHashesAt', () => {
  it('gives each line the context hash its own walk gives it, many lines at a time', () => {
    const line = fc.constantFrom('', '  ', '}', 'x', '\t', 'y ');
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 80 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (lines, picks) => {
          const source = { count: lines.length, line: (i: number) => lines[i]! };
          const indices = picks.map((p) => p % lines.length);
          expect(contextHashesAt(source, indices, 8)).toEqual(indices.map((i) => contextHash(lines, i, 8)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
