import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FileSystemToolset } from '../tools/filesystem-toolset.js';
import type { McpToolset } from './mcp-toolset.js';
import { narrowToRoots, withSandbox } from './roots.js';

/** How long a call waits for a pending roots/list answer before the sandbox is closed (fail closed). */
const ROOTS_WAIT_MS = 5_000;

/**
 * Narrows the served sandbox to the client's roots once the client is initialized,
 * and again on roots/list_changed (always from the configured mounts, so a change
 * of roots can shrink or restore access, never exceed the mounts). A client
 * without roots keeps the mounts; a roots request that fails leaves no access.
 * Only the newest request's answer applies: an older answer arriving late is dropped.
 * A request unanswered after ROOTS_WAIT_MS leaves no access until an answer arrives,
 * so calls wait a bounded time and never run under roots wider than the client's.
 * Returns what a call awaits before it runs.
 */
export function followRoots(
  server: Server,
  tools: McpToolset,
  toolset: FileSystemToolset,
  log: (line: string) => void,
): () => Promise<void> {
  let generation = 0;
  const closeAll = () => tools.replaceInner(withSandbox(toolset, toolset.sandbox.derive({})));
  const narrow = (): Promise<void> => {
    const mine = ++generation;
    let answered = false;
    const request = (async () => {
      try {
        const { roots } = await server.listRoots();
        if (mine !== generation) return;
        const narrowed = narrowToRoots(toolset.sandbox, roots);
        tools.replaceInner(withSandbox(toolset, narrowed));
        log(
          `sandbox-approval: narrowed to the client's roots: read ${narrowed.readableRoots.join(', ') || '(none)'}; write ${narrowed.writableRoots.join(', ') || '(none)'}`,
        );
      } catch (error) {
        if (mine !== generation) return;
        closeAll();
        log(
          `sandbox-approval: could not get the client's roots (${error instanceof Error ? error.message : String(error)}); nothing is accessible`,
        );
      } finally {
        answered = true;
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        if (!answered && mine === generation) {
          closeAll();
          log(
            `sandbox-approval: the client has not answered roots/list within ${ROOTS_WAIT_MS} ms; nothing is accessible until it does`,
          );
        }
        resolve();
      }, ROOTS_WAIT_MS);
      timer.unref();
    });
    return Promise.race([request, waited]).finally(() => clearTimeout(timer));
  };
  let pending: Promise<void> = new Promise((resolve) => {
    server.oninitialized = () => {
      if (!server.getClientCapabilities()?.roots) {
        log(
          'sandbox-approval: --roots narrow, but the client has no roots: serving the mounts as configured',
        );
        resolve();
        return;
      }
      pending = narrow();
      resolve(pending);
    };
  });
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    pending = narrow();
  });
  return async () => {
    // Until no newer roots request is pending (each wait is bounded).
    for (let seen = pending; ; seen = pending) {
      await seen;
      if (seen === pending) return;
    }
  };
}
