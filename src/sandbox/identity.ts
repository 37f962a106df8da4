import { createHash } from 'node:crypto';
import type { Mount } from './config.js';
import type { Grants } from './grants.js';

/**
 * A fingerprint of a sandbox: its mounts (real roots, mount points, modes, limits,
 * approval flags) and the grants of every derivation step, innermost first. The
 * same configuration gives the same identity in any process; any difference in
 * what the sandbox allows gives another.
 */
export function sandboxIdentity(mounts: readonly Mount[], grants: readonly Grants[]): string {
  const shape = mounts.map((m) => [
    m.mountPoint,
    m.realRoot,
    m.mode,
    m.suffixes ?? null,
    m.maxFileBytes ?? null,
    m.writeApproval,
    m.readApproval,
  ]);
  const text = JSON.stringify({ mounts: shape, grants });
  return `sbx-${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}
