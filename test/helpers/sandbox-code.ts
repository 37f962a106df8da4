import { SandboxError } from '../../src/contract/errors.js';

/** The SandboxError code `fn` throws, or 'ok' when it does not throw. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof SandboxError) return e.code;
    throw e;
  }
  return 'ok';
}
