import { describe, expect, it } from 'vitest';
import { LineHashCache } from '../../src/edit/line-hash-cache.js';

describe('LineHashCache', () => {
  it('returns what was stored under a content hash and drops the least recently used beyond its budget', () => {
    const cache = new LineHashCache(3 * 4 * 10); // three arrays of 10 hashes
    const a = new Uint32Array(10).fill(1);
    const b = new Uint32Array(10).fill(2);
    const c = new Uint32Array(10).fill(3);
    cache.set('a', a);
    cache.set('b', b);
    cache.set('c', c);
    expect(cache.get('a')).toBe(a); // a is now the most recently used
    cache.set('d', new Uint32Array(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    expect(cache.get('c')).toBe(c);
    cache.set('a', b); // replacing an entry does not count it twice
    cache.set('e', new Uint32Array(10));
    expect(cache.get('a')).toBe(b);
    expect(cache.get('missing')).toBeUndefined();
  });

  it('does not keep an array larger than its whole budget', () => {
    const cache = new LineHashCache(40);
    cache.set('big', new Uint32Array(11));
    expect(cache.get('big')).toBeUndefined();
  });
});
