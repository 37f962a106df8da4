import { randomUUID } from 'node:crypto';

/**
 * Atomic writes go through a temp file named `.<name>.sandbox-approval-<pid>-<hex>.tmp`
 * in the target's directory: recognisable (to hide and to clean up) and carrying
 * the writer's pid, so a file left by a killed writer can be told from one in use.
 */
const TEMP_MARKER = '.sandbox-approval-';

// `<pid>-` is absent from names written by earlier versions.
const TEMP_NAME = /^\..*\.sandbox-approval-(?:(\d{1,10})-)?[0-9a-f]{12}\.tmp$/s;

export function tempFileName(target: string): string {
  // A v4 UUID's last 12 hex digits are random; randomUUID draws from a batch of entropy
  // (randomBytes asks OpenSSL every call, the costlier step of a small write's naming).
  return `.${namePrefix(target)}${TEMP_MARKER}${process.pid}-${randomUUID().slice(-12)}.tmp`;
}

/** Bytes of the target's name kept in a temp name: with the rest (at most 46 bytes) it stays under NAME_MAX (255). */
const PREFIX_BYTES = 100;

/** The target's name cut to PREFIX_BYTES of UTF-8, whole characters only (a CJK name is 3 bytes a character). */
function namePrefix(name: string): string {
  if (Buffer.byteLength(name) <= PREFIX_BYTES) return name;
  let out = '';
  let bytes = 0;
  for (const ch of name) {
    bytes += Buffer.byteLength(ch);
    if (bytes > PREFIX_BYTES) break;
    out += ch;
  }
  return out;
}

/** True for names of our atomic-write temp files (and nothing a user is likely to name a file). */
export function isTempFileName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/** The writer pid in a temp file name; undefined when the name has none (or is not ours). */
export function tempFileOwner(name: string): number | undefined {
  const pid = TEMP_NAME.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}
