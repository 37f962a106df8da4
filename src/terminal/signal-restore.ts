const SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/**
 * While a prompt owns the terminal, SIGTERM and SIGHUP first restore it (raw
 * mode off, alternate screen left, cursor shown: `restore`), then keep their
 * usual meaning: with no other handler the signal is raised again, so the
 * process ends by that signal; a host's own handler decides otherwise. Returns
 * the function that removes the handlers.
 */
export function restoreOnSignals(restore: () => void): () => void {
  const handler = (signal: NodeJS.Signals) => {
    try {
      restore();
    } finally {
      dispose();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    }
  };
  const dispose = () => {
    for (const s of SIGNALS) process.off(s, handler);
  };
  for (const s of SIGNALS) process.on(s, handler);
  return dispose;
}
