import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeLine, shiftLeft } from '../../src/terminal/sanitize.js';

// Printable ASCII takes a shortcut (one regex instead of a walk of every character): it must
// give what the walk gives. A non-ASCII character appended forces the walk on the same text.
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

describe('sanitizeLine and shiftLeft on printable ASCII', () => {
  it('sanitizeLine gives what the character walk gives', () => {
    fc.assert(
      fc.property(printable, fc.constantFrom(false, true, 'tabs' as const), (text, ws) => {
        // Trailing spaces are marked only at the very end: compare with them kept inside.
        const walked = sanitizeLine(`${text}é`, 4, ws);
        expect(`${sanitizeLine(text, 4, ws === true && /\s$/.test(text) ? false : ws)}é`).toBe(walked);
        if (ws === true)
          expect(sanitizeLine(text, 4, true)).toBe(text.replace(/ +$/, (s) => '·'.repeat(s.length)));
      }),
      { numRuns: 500 },
    );
  });

  it('shiftLeft drops the same columns as the character walk', () => {
    fc.assert(
      fc.property(printable, fc.nat(70), (text, columns) => {
        fc.pre(columns < text.length);
        expect(`${shiftLeft(text, columns)}é`).toBe(shiftLeft(`${text}é`, columns));
      }),
      { numRuns: 500 },
    );
  });
});
