import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/fs/atomic-write.js';
import { readFileBytes } from '../../src/fs/read-text.js';
import { sha256Hex } from '../../src/fs/state-tracker.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fd-io-')));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const opts = { displayPath: '/f.txt' };

// A long text (over 4 Mi characters) is written a slice at a time (2^18 characters per
// slice) and hashed as it goes: the file and the reported hash must be exactly
// Buffer.from(text), whatever sits at a slice boundary (surrogate pairs, lone surrogates,
// multi-byte characters). Shorter texts are encoded at once; both are checked.
const piece = fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00', '\n', '\r\n');
const text = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.integer({ min: -4, max: 2 }), fc.boolean())
  .map(([pieces, offset, long]) => {
    let t = '';
    // Each run of pieces starts exactly `offset` characters from a slice boundary.
    for (let k = 1; k <= (long ? 17 : 2); k++)
      t += 'x'.repeat(k * (1 << 18) + offset - t.length) + pieces.join('');
    return t;
  });

describe('writing text a slice at a time', () => {
  it('writes and hashes exactly the UTF-8 of the text', async () => {
    await fc.assert(
      fc.asyncProperty(text, async (t) => {
        const file = path.join(root, 'f.txt');
        const out = await writeFileAtomic(file, root, t, opts);
        const expected = Buffer.from(t, 'utf8');
        expect(fs.readFileSync(file).equals(expected)).toBe(true);
        expect(out.bytes).toBe(expected.length);
        expect(out.sha256).toBe(sha256Hex(expected));
        expect(sha256Hex(t)).toBe(sha256Hex(expected));
      }),
      { numRuns: 25 },
    );
  });
});

describe('writing pieces (an edit: head, middle, tail)', () => {
  // Small pieces go out as one writev, bigger ones one by one: either way the file and the
  // hash are the pieces' bytes in order, empty pieces and multi-byte characters included.
  const part = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
    fc.constantFrom('', 'é😀\r\n', 'x'.repeat(400_000), Buffer.alloc(0)),
  );
  it('writes and hashes exactly the pieces in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 6 }), async (pieces) => {
        const file = path.join(root, 'pieces.txt');
        const out = await writeFileAtomic(file, root, pieces, opts);
        const expected = Buffer.concat(
          pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)),
        );
        expect(fs.readFileSync(file).equals(expected)).toBe(true);
        expect(out.bytes).toBe(expected.length);
        expect(out.sha256).toBe(sha256Hex(expected));
      }),
      { numRuns: 60 },
    );
  });
});

describe('reading a big file again', () => {
  it('gives the bytes on disk now, also when they changed in place at the same size', async () => {
    const file = path.join(root, 'big.txt');
    const size = (1 << 20) + 4096;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(size - 1),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        async (at, byte, sameInode) => {
          const before = Buffer.alloc(size, 'a');
          fs.writeFileSync(file, before);
          const first = await readFileBytes(file, root, { maxBytes: 1 << 30, displayPath: '/big.txt' });
          expect(first.data.equals(before)).toBe(true);
          const after = Buffer.from(before);
          after[at] = byte === 97 ? 98 : byte;
          if (sameInode) {
            const fd = fs.openSync(file, 'r+');
            fs.writeSync(fd, after, at, 1, at);
            fs.closeSync(fd);
          } else fs.writeFileSync(file, after);
          const second = await readFileBytes(file, root, { maxBytes: 1 << 30, displayPath: '/big.txt' });
          expect(second.data.equals(after)).toBe(true);
          expect(second.sha256).toBe(sha256Hex(after));
          // Unchanged: the same bytes again.
          const third = await readFileBytes(file, root, { maxBytes: 1 << 30, displayPath: '/big.txt' });
          expect(third.data.equals(after)).toBe(true);
          expect(third.sha256).toBe(second.sha256);
        },
      ),
      { numRuns: 30 },
    );
  });
});
