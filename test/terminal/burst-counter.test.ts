import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BurstCounter } from '../../src/terminal/burst-counter.js';

describe('BurstCounter', () => {
  it('numbers the requests of a burst 1..n in order, alone ones unnumbered, a drained queue restarts (generated)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }), (bursts) => {
        const counter = new BurstCounter();
        for (const n of bursts) {
          for (let i = 0; i < n; i++) counter.arrive();
          const labels: string[] = [];
          for (let i = 0; i < n; i++) {
            labels.push(counter.show());
            counter.leave();
          }
          expect(labels).toEqual(
            n === 1 ? [''] : Array.from({ length: n }, (_, i) => `Approval ${i + 1} of ${n}`),
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});
