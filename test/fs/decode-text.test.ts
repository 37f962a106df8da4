import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FsError } from '../../src/fs/fs-error.js';
import { decodeText } from '../../src/fs/read-text.js';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What decodeText must give: the strict UTF-8 reading, BOM kept; binary (NUL, invalid UTF-8) refused. */
function expected(bytes: Buffer): string | 'binary' {
  if (bytes.includes(0)) return 'binary';
  try {
    return strict.decode(bytes);
  } catch {
    return 'binary';
  }
}

function actual(bytes: Buffer): string | 'binary' {
  try {
    return decodeText(bytes, '/f.txt');
  } catch (error) {
    expect(error).toBeInstanceOf(FsError);
    expect((error as FsError).code).toBe('binary_file');
    return 'binary';
  }
}

// ASCII files take a shortcut (their latin1 reading); every other byte string the validating
// decoder. Both must agree with the strict reading on every input, at every size.
const asciiByte = fc.integer({ min: 0, max: 0x7f });
const anyByte = fc.integer({ min: 0, max: 0xff });
const bytes = fc.oneof(
  fc.array(asciiByte, { maxLength: 300 }),
  fc.array(fc.integer({ min: 1, max: 0x7f }), { maxLength: 300 }),
  fc.array(anyByte, { maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 200 }).map((s) => [...Buffer.from(s, 'utf8')]),
  fc.tuple(fc.string({ unit: 'binary', maxLength: 50 }), fc.nat(300_000), anyByte).map(([s, at, b]) => {
    // A big ASCII text with one arbitrary byte somewhere (or none past its end).
    const big = Buffer.alloc(300_000, 'a');
    if (at < big.length) big[at] = b;
    return [...Buffer.concat([Buffer.from(s, 'utf8'), big])];
  }),
);

describe('decodeText', () => {
  it('gives the strict UTF-8 reading of any bytes, or refuses them as binary', () => {
    fc.assert(
      fc.property(bytes, (list) => {
        const buffer = Buffer.from(list);
        expect(actual(buffer)).toBe(expected(buffer));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a BOM and reads ASCII after it', () => {
    expect(decodeText(Buffer.from('\ufeffabc', 'utf8'), '/f.txt')).toBe('\ufeffabc');
  });
});
