import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countNewlineBytes } from '../../src/edit/newline-bytes.js';
import { replaceInText } from '../../src/edit/replace-in-text.js';

const naive = (bytes: Uint8Array, from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) if (bytes[i] === 10) n++;
  return n;
};

// Bytes near LF in value (0x0a with one bit flipped, 0x8a with bit 7 set) are where a word-at-a-time test would slip.
const byte = fc.oneof(
  fc.constant(10),
  fc.constantFrom(0, 8, 11, 14, 26, 42, 74, 0x7f, 0x80, 0x8a, 0xff),
  fc.integer({ min: 0, max: 255 }),
);

describe('countNewlineBytes', () => {
  it('counts the LF bytes of any range, at any alignment', () => {
    fc.assert(
      fc.property(
        fc.array(byte, { maxLength: 300 }),
        fc.nat(7),
        fc.nat(),
        fc.nat(),
        (values, shift, a, b) => {
          // A view that starts `shift` bytes into its buffer: the word view must not assume alignment.
          const backing = new Uint8Array(values.length + shift);
          backing.set(values, shift);
          const bytes = backing.subarray(shift);
          const from = values.length === 0 ? 0 : a % (values.length + 1);
          const to = from + (values.length === 0 ? 0 : b % (values.length - from + 1));
          expect(countNewlineBytes(bytes, from, to)).toBe(naive(bytes, from, to));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('counts a run of short lines a million bytes long', () => {
    const bytes = Buffer.from('}\n'.repeat(500_000), 'latin1');
    expect(countNewlineBytes(bytes, 0, bytes.length)).toBe(500_000);
    expect(countNewlineBytes(bytes, 1, bytes.length - 3)).toBe(499_998);
  });
});

describe('edit_file line numbers from an ASCII file’s bytes', () => {
  it('are the ones counted in the text, for exact, fuzzy and ambiguous matches', () => {
    const line = fc.constantFrom('}', '', 'x = 1', '  x = 1', 'x = 1  ', 'y', '\ty');
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 400 }),
        fc.boolean(),
        fc.array(line, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (lines, crlf, old, replaceAll) => {
          const text = `${lines.join(crlf ? '\r\n' : '\n')}\n`;
          const request = { oldString: old.join('\n'), newString: 'z = 2', replaceAll };
          const bytes = Buffer.from(text, 'latin1');
          expect(replaceInText(text, { ...request, bytes })).toEqual(replaceInText(text, request));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('are right deep in a file of short lines, for an exact and a fuzzy match', () => {
    fc.assert(
      fc.property(fc.nat(3000), fc.nat(3000), fc.boolean(), fc.boolean(), (before, after, crlf, slip) => {
        const eol = crlf ? '\r\n' : '\n';
        const lines = [...Array(before).fill('}'), slip ? 'done(); ' : 'done();', ...Array(after).fill('}')];
        const text = `${lines.join(eol)}${eol}`;
        const request = { oldString: '}\ndone();', newString: '}\nfinished();', replaceAll: false };
        if (before === 0) return;
        const result = replaceInText(text, { ...request, bytes: Buffer.from(text, 'latin1') });
        expect(result.ok && result.matchLines).toEqual([before]);
      }),
      { numRuns: 300 },
    );
  });
});
