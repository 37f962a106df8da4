import { describe, expect, it } from 'vitest';
import { StateTracker } from '../../src/fs/state-tracker.js';

describe('a read recorded after a parallel write', () => {
  it('is numbered below the write when it showed an older state, and does not become the latest', () => {
    const t = new StateTracker();
    t.record('/a', 'old');
    const since = t.now();
    const write = t.record('/a', 'new'); // recorded while the read loaded
    const read = t.recordRead('/a', 'old', since);
    expect(read.version).toBeLessThan(write.version);
    expect(t.last('/a')).toEqual(write);
    // A read that shows the write's state is the newest.
    const fresh = t.recordRead('/a', 'new', since);
    expect(fresh.version).toBeGreaterThan(write.version);
    // No write meanwhile (or another file's): a read is the latest, whatever it shows.
    const s2 = t.now();
    t.record('/b', 'x');
    const outside = t.recordRead('/a', 'changed outside', s2);
    expect(outside.version).toBeGreaterThan(fresh.version);
    expect(t.last('/a')?.sha256).toBe('changed outside');
  });
});
