import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

/** The request context the SDK hands a request handler. */
export type CallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** Progress notifications while a call is pending, when the client sent a progressToken; returns the stop function. */
export function keepAlive(extra: CallExtra, intervalMs: number): () => void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  let progress = 0;
  const timer = setInterval(() => {
    progress++;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress, message: 'Waiting for the call to finish (approval pending?)' },
      })
      .catch(() => undefined);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
