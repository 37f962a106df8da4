import { afterEach, describe, expect, it, vi } from 'vitest';
import { BriefMemo } from '../../src/fs/brief-memo.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('BriefMemo', () => {
  it('gives the value back only for a key equal part by part, and forgets it after its time', () => {
    vi.useFakeTimers();
    const memo = new BriefMemo<string>(1_000);
    const big = 'x'.repeat(10);
    memo.set(['/a.txt', 'sha-1', big, false], 'edit-1');
    expect(memo.get(['/a.txt', 'sha-1', big, false])).toBe('edit-1');
    expect(memo.get(['/a.txt', 'sha-2', big, false])).toBeUndefined();
    expect(memo.get(['/b.txt', 'sha-1', big, false])).toBeUndefined();
    expect(memo.get(['/a.txt', 'sha-1', big, true])).toBeUndefined();
    expect(memo.get(['/a.txt', 'sha-1', big])).toBeUndefined();
    memo.set(['/a.txt', 'sha-2'], 'edit-2');
    expect(memo.get(['/a.txt', 'sha-1', big, false])).toBeUndefined(); // one entry only
    vi.advanceTimersByTime(999);
    expect(memo.get(['/a.txt', 'sha-2'])).toBe('edit-2');
    vi.advanceTimersByTime(1);
    expect(memo.get(['/a.txt', 'sha-2'])).toBeUndefined();
  });
});
