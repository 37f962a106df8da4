import { spawnSync } from 'node:child_process';

/**
 * Pipes `text` through `$PAGER` (default `less -R`, which keeps the colours).
 * Returns false when the pager could not run (not installed, failed), so the
 * caller can fall back to the built-in pager: viewing must never silently fail.
 */
export function runSystemPager(text: string, command = process.env.PAGER || 'less -R'): boolean {
  const result = spawnSync(command, {
    input: text,
    stdio: ['pipe', 'inherit', 'inherit'],
    shell: true,
  });
  return result.error === undefined && result.status === 0;
}
