/** Whether a budget of work is spent, polled by a search between steps. */
export interface Deadline {
  passed(): boolean;
}

/** This thread's CPU time in milliseconds (the process's where Node cannot tell threads apart). */
function cpuMs(): number {
  const usage =
    (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/**
 * A budget of computation, counted in CPU time rather than on the wall clock: on a loaded
 * machine (other processes, a CI runner's parallel tests) the same texts get the same
 * diff, instead of one cut short because the thread was waiting for a core. The wall clock
 * (cheap) is polled first; the CPU clock (a system call) is read only once as much wall
 * time has gone as there was budget left, and what is still left sets the next such point.
 */
export class ComputeDeadline implements Deadline {
  private readonly cpuEnd: number;
  private wallCheck: number;
  private spent = false;

  constructor(budgetMs: number) {
    this.cpuEnd = cpuMs() + budgetMs;
    this.wallCheck = performance.now() + budgetMs;
  }

  passed(): boolean {
    if (this.spent) return true;
    const now = performance.now();
    if (now < this.wallCheck) return false;
    const left = this.cpuEnd - cpuMs();
    if (left <= 0) this.spent = true;
    else this.wallCheck = now + left;
    return this.spent;
  }
}

/**
 * A deadline that passes `extraMs` of computation after `base` has: a stretch's allowance
 * past the budget. Its clock starts when it first finds `base` passed, so a stretch that
 * ends in time costs no CPU clock read.
 */
export function atLeast(base: Deadline, extraMs: number): Deadline {
  let own: ComputeDeadline | undefined;
  return {
    passed: () => {
      if (own) return own.passed();
      if (base.passed()) own = new ComputeDeadline(extraMs);
      return false;
    },
  };
}
