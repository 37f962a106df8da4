import { spawn } from 'node:child_process';

/** What a budgeted child reported: its RESULT line's fields, `hung` when killed, or its stderr when it died. */
export type ChildOutcome<T> = Partial<T> & { hung?: boolean; ms?: number; err?: string };

/**
 * Runs an ES module `source` in a child process (tsx) with a wall-clock budget that starts
 * when it prints START: synchronous work cannot be stopped by an in-process timeout, so a
 * hang is turned into `hung: true` (the child is killed). The child reports by printing
 * `RESULT <json>`; `ms` is the time from START to it, unless the child reports its own.
 */
export function runBudgeted<T>(source: string, budgetMs: number, cwd?: string): Promise<ChildOutcome<T>> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    ...(cwd ? { cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
  });
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let t0 = 0;
    child.stdout.on('data', (c) => {
      out += c;
      if (!timer && out.includes('START')) {
        t0 = performance.now();
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve({ hung: true } as ChildOutcome<T>);
        }, budgetMs);
      }
      const m = /RESULT (.*)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ ms: Math.round(performance.now() - t0), ...JSON.parse(m[1]!) });
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve({ err: err.slice(0, 2000) } as ChildOutcome<T>);
    });
  });
}
