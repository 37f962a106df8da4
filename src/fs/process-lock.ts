import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { withLockFile } from './process-lock-file.js';

/**
 * A lock shared by every process of this user on this machine, by key.
 *
 * On Linux it is a kernel-held mutex: an abstract-namespace UNIX socket bound
 * to a name derived from the key. Binding is atomic (EADDRINUSE = held), and
 * the kernel frees the name when its holder closes it, exits or is SIGKILLed,
 * so no lock is ever left behind and nothing needs "breaking". The name is an
 * HMAC of the key under a per-user secret salt kept 0600 in the private lock
 * directory, so another user cannot squat it. Limits: one machine, one network
 * namespace (containers with their own namespace do not see each other's names).
 *
 * Elsewhere a lock file is the fallback (process-lock-file.ts), with a small
 * documented race when a dead owner's lock is broken.
 *
 * The lock directory is `<os.tmpdir()>/sandbox-approval-locks-<uid>/` (0700):
 * never inside a mounted directory, and keys never become paths.
 * Written here rather than taken from proper-lockfile: that one detects stale
 * locks by mtime (a stalled event loop lets a second holder in).
 */

let directory: string | undefined;

/** Where lock files and the salt live (created on first use, private to this user). */
export function lockDirectory(): string {
  directory ??= path.join(os.tmpdir(), `sandbox-approval-locks-${process.getuid?.() ?? 'user'}`);
  return directory;
}

let checked: string | undefined;

/** The lock directory, refused when it belongs to someone else (a shared /tmp). */
async function ensureDirectory(): Promise<string> {
  const dir = lockDirectory();
  if (checked === dir) return dir;
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const stat = await fs.lstat(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid))
    throw new Error(`lock directory ${dir} is not a directory owned by this user`);
  checked = dir;
  return dir;
}

const salts = new Map<string, Promise<Buffer>>();

/** The per-user secret salt (32 random bytes, 0600), created whole once by whichever process comes first. */
function saltOf(dir: string): Promise<Buffer> {
  let salt = salts.get(dir);
  if (!salt) {
    salt = (async () => {
      const file = path.join(dir, 'salt');
      const temp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
      await fs.writeFile(temp, randomBytes(32), { mode: 0o600 });
      // link(): the salt appears complete or not at all; the loser reads the winner's.
      await fs.link(temp, file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      await fs.rm(temp, { force: true });
      const stat = await fs.lstat(file);
      const uid = process.getuid?.();
      if (!stat.isFile() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0)
        throw new Error(`lock salt ${file} is not a private file of this user`);
      const bytes = await fs.readFile(file);
      if (bytes.length !== 32) throw new Error(`lock salt ${file} is malformed`);
      return bytes;
    })();
    salts.set(dir, salt);
    salt.catch(() => salts.delete(dir));
  }
  return salt;
}

/** Whether abstract UNIX socket names exist here (Linux); overridable to test the fallback. */
function useSockets(): boolean {
  const forced = process.env.SANDBOX_APPROVAL_LOCK;
  if (forced === 'file') return false;
  return process.platform === 'linux';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Binds the abstract name; false when another process holds it. */
function bind(name: string): Promise<net.Server | false> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(false) : reject(error),
    );
    server.listen({ path: name, exclusive: true }, () => {
      // The lock must not keep a process alive, nor stop it from exiting.
      server.unref();
      resolve(server);
    });
  });
}

const socketNames = new Map<string, string>();

/** The abstract socket name of a key: a hash of the salt and the key, kept (a file is locked at every edit). */
async function socketNameOf(dir: string, key: string): Promise<string> {
  const known = socketNames.get(key);
  if (known !== undefined) return known;
  const salt = await saltOf(dir);
  const name = `\0sandbox-approval-${createHash('sha256').update(salt).update(key).digest('hex')}`;
  if (socketNames.size >= 10_000) socketNames.clear();
  socketNames.set(key, name);
  return name;
}

async function withSocketLock<T>(dir: string, key: string, fn: () => Promise<T>): Promise<T> {
  const name = await socketNameOf(dir, key);
  // Poll with capped backoff: the kernel frees the name the moment its holder lets go or dies.
  let server = await bind(name);
  for (let wait = 1; !server; wait = Math.min(wait * 2, 25)) {
    await sleep(wait);
    server = await bind(name);
  }
  const held = server;
  try {
    return await fn();
  } finally {
    // close() releases the name at once (the socket is closed synchronously); only its
    // callback waits for a turn of the event loop, and nothing here needs that.
    held.close();
  }
}

/** Holds the cross-process lock of `key` while `fn` runs (waits for other holders). */
export async function withProcessLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const dir = await ensureDirectory();
  if (useSockets()) return withSocketLock(dir, key, fn);
  return withLockFile(path.join(dir, `${createHash('sha256').update(key).digest('hex')}.lock`), fn);
}
