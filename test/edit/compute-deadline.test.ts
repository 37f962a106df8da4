import { describe, expect, it } from 'vitest';
import { atLeast, ComputeDeadline } from '../../src/edit/compute-deadline.js';

/** Blocks this thread without using a core (what waiting for one on a loaded machine looks like). */
const wait = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Keeps this thread computing for `ms` of its own CPU time. */
function compute(ms: number): void {
  const start = process.cpuUsage();
  let x = 0;
  while (true) {
    for (let k = 0; k < 10_000; k++) x = (x * 31 + k) | 0;
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) break;
  }
  expect(typeof x).toBe('number');
}

describe('a diff budget counted in computation, not on the wall clock', () => {
  it('is not spent by time the thread spends waiting', () => {
    const d = new ComputeDeadline(50);
    wait(150);
    expect(d.passed()).toBe(false);
    compute(70);
    expect(d.passed()).toBe(true);
    expect(d.passed()).toBe(true); // once passed, for good
  });

  it('a stretch allowance starts when the base has passed, and is counted the same way', () => {
    const base = new ComputeDeadline(20);
    const stretch = atLeast(base, 40);
    expect(stretch.passed()).toBe(false);
    compute(30);
    expect(base.passed()).toBe(true);
    expect(stretch.passed()).toBe(false); // the allowance starts now
    wait(100);
    expect(stretch.passed()).toBe(false);
    compute(60);
    expect(stretch.passed()).toBe(true);
  });
});
