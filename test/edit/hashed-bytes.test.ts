import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderHashedPage, renderHashedText } from '../../src/edit/hashed-render.js';
import { hex, lineHash32, lineHashesAt } from '../../src/edit/line-hash.js';
import { LineTable } from '../../src/edit/line-table.js';
import { versionOf } from '../../src/tools/read-versions.js';
import { textArbitrary } from '../helpers/text-arbitrary.js';

// Repeated lines, blank lines, trailing whitespace of every ASCII kind, non-ASCII text (lone surrogates too).
const line = fc.oneof(
  fc.constantFrom('', '}', '}', '  x = 1;', '  x = 1;  ', 'a\t', 'b\v\f', 'c\r', 'é', '😀 ok\u00a0', ' '),
  fc.string({ maxLength: 30 }).map((s) => s.replaceAll('\n', '')),
  fc.string({ unit: 'binary', maxLength: 12 }).map((s) => s.replaceAll('\n', '')),
);
const fileArb = textArbitrary(line, fc.constantFrom('\n', '\n', '\r\n'), 40);

/** The version read_file builds from a file's bytes (its fast path, when it applies). */
const versionFrom = (raw: string) => {
  const data = Buffer.from(raw, 'utf8');
  return versionOf(data.toString('utf8'), data.length, 'sha', data);
};

describe('hashed reads from bytes', () => {
  it('hash every line as LineTable and lineHash32 do, from bytes or from the text', () => {
    fc.assert(
      fc.property(fileArb, (raw) => {
        const version = versionFrom(raw);
        const text = version.modelText;
        const expected = new LineTable(text).hashes();
        const lines = text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
        expect([...expected]).toEqual(lines.map((l) => lineHash32(l)));
        const starts = version.lineStarts();
        expect(lineHashesAt(text, starts, version.total)).toEqual(expected);
        const ascii = Buffer.byteLength(text) === text.length;
        if (ascii)
          expect(lineHashesAt(text, starts, version.total, Buffer.from(text, 'latin1'))).toEqual(expected);
        // The version has bytes exactly when they are the model text's (ASCII, LF, no BOM).
        expect(version.modelBytes !== undefined).toBe(ascii && text === raw);
        if (version.modelBytes) expect(version.modelBytes.toString('latin1')).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('render any page, ASCII from bytes or text, any text as UTF-16, exactly as line by line', () => {
    fc.assert(
      fc.property(fileArb, fc.nat(), fc.nat(), fc.integer({ min: 1, max: 99_999 }), (raw, a, b, shift) => {
        const version = versionOf(raw, Buffer.byteLength(raw), 'sha');
        const text = version.modelText;
        const total = version.total;
        if (total === 0) return;
        const starts = version.lineStarts();
        const first = a % total;
        const lines = 1 + (b % (total - first));
        const last = first + lines - 1;
        // The page ends where its last line's content does (its newline excluded).
        const to = text.charCodeAt(starts[last + 1]! - 1) === 10 ? starts[last + 1]! - 1 : starts[last + 1]!;
        const known = lineHashesAt(text, starts, total).map((h, i) => h ^ Math.imul(i, 0x9e3779b1));
        const page = known.subarray(first, first + lines);
        const startLine = first + shift; // line numbers of any width
        const expected = text
          .slice(starts[first], to)
          .split('\n')
          .map((l, k) => `${startLine + k}#${hex(page[k]!, 6)}|${l}`)
          .join('\n');
        expect(renderHashedPage(text, starts, first, lines, to, startLine, page, true)).toBe(expected);
        expect(
          renderHashedText(text.slice(starts[first], to), startLine, { lines, known: page }).content,
        ).toBe(expected);
        if (Buffer.byteLength(text) !== text.length) return;
        const bytes = Buffer.from(text, 'latin1');
        expect(renderHashedPage(bytes, starts, first, lines, to, startLine, page)).toBe(expected);
        expect(renderHashedPage(text, starts, first, lines, to, startLine, page)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('renders pages bigger than the shared page buffer exactly, one after another, whatever the buffer held before', () => {
    // Sizes around the 1 MiB page buffer and the kept larger one: each render must see
    // only its own bytes, also when a smaller or a UTF-16 page reuses a bigger buffer.
    const make = (count: number, width: number, tail: string) =>
      Array.from({ length: count }, (_, i) => `${String(i).padStart(width, '0')}${tail}`);
    const pages = [
      make(40_000, 40, 'a'), // ~1.9 MB ASCII
      make(70_000, 20, 'b'), // ~1.9 MB with more lines: more prefix bytes
      make(30_000, 30, 'é'), // UTF-16, ~2.4 MB laid out
      make(25_000, 41, '}'), // just above 1 MiB
      make(3, 5, 'z'), // back to the page buffer
      make(40_000, 40, 'a'),
    ];
    for (const lines of pages) {
      const text = lines.join('\n');
      const expected = lines.map((l, k) => `${7 + k}#${hex(lineHash32(l), 6)}|${l}`).join('\n');
      expect(renderHashedText(text, 7).content === expected).toBe(true);
    }
  });
});
