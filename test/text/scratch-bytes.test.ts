import { describe, expect, it } from 'vitest';
import { releasableBytes, releaseBytes, withScratchBytes } from '../../src/text/scratch-bytes.js';

describe('scratch bytes', () => {
  it('give their memory back when used: views are empty afterwards, what was made from them stays', () => {
    let view: Buffer | undefined;
    const text = withScratchBytes(3 << 20, (bytes) => {
      view = bytes;
      bytes.fill(0x61);
      return bytes.toString('latin1');
    });
    expect(text.length).toBe(3 << 20);
    expect(text.startsWith('aaa') && text.endsWith('aaa')).toBe(true);
    expect(view!.length).toBe(0);
  });

  it('are released even when the work throws', () => {
    let view: Buffer | undefined;
    expect(() =>
      withScratchBytes(2 << 20, (bytes) => {
        view = bytes;
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(view!.length).toBe(0);
  });

  it('small ones are ordinary buffers; releasing one does nothing', () => {
    const small = releasableBytes(16);
    small.fill(1);
    releaseBytes(small);
    expect(small.length).toBe(16);
    const big = releasableBytes(2 << 20);
    releaseBytes(big);
    expect(big.length).toBe(0);
  });
});
