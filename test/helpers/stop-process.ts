import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/**
 * Stops a child process (SIGSTOP) and waits until the kernel reports it stopped: a
 * signal is delivered asynchronously, and on a loaded machine a fixed sleep let the
 * child run on while a test reset the files it races on (the test then blamed the
 * code under test for the harness's own race).
 */
export async function stopProcess(child: ChildProcess): Promise<void> {
  child.kill('SIGSTOP');
  for (let i = 0; i < 5000; i++) {
    const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    // The state follows the command name, which is in parentheses and may hold spaces.
    const state = stat[stat.lastIndexOf(')') + 2];
    if (state === 'T' || state === 't') return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error(`process ${child.pid} did not stop`);
}
