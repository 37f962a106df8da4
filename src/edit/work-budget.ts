/**
 * Search steps (a diagonal extended, a pair of lines compared) one millisecond of a diff's
 * budget buys: measured on one core of a 2020s server, a whole diff (line ids, the search,
 * the hunks) takes 3 to 12 ms per million steps of its search.
 */
export const STEPS_PER_MS = 200_000;

/**
 * A diff's budget, counted in the search's own steps rather than by a clock: the same
 * two texts always get the same diff, on a loaded machine or an idle one, in any process
 * (a clock, even a CPU clock, made a CI runner's parallel tests show a different diff
 * from run to run). Given in milliseconds of a typical core (STEPS_PER_MS).
 */
export class WorkBudget {
  /** Steps still to spend; below zero once spent. */
  left: number;

  constructor(ms: number) {
    this.left = ms * STEPS_PER_MS;
  }
}
