// Red team rt55: big files (> 1 MiB), bytes exact, undo exact, approval = write. Public API only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import {
  type ApprovalPayload,
  ApprovalToolset,
  FileSystemToolset,
  type FileSystemToolsetOptions,
  Sandbox,
} from '../../src/index.js';

export { applyStrict } from './rt54-helpers.js';

export * from './rt55-text.js';

import { MiB } from './rt55-text.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A fresh temp dir (removed after the test) holding `files`. */
export function tmp(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt55-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return dir;
}

export const bytesOf = (dir: string, rel: string): Buffer => fs.readFileSync(path.join(dir, rel));
export const modeOf = (dir: string, rel: string): number => fs.statSync(path.join(dir, rel)).mode & 0o7777;
export const exists = (dir: string, rel: string): boolean => fs.existsSync(path.join(dir, rel));

/** Big readMaxChars/Lines so one read returns a whole file (its content can be hashed). */
export const WHOLE_READ = { readMaxChars: 64 * MiB, readMaxLines: 10_000_000 };

export function toolsetOn(dir: string, options: FileSystemToolsetOptions = {}): FileSystemToolset {
  return new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), options);
}

export interface Shown {
  toolName: string;
  payload: ApprovalPayload & { unifiedDiff?: string; baseSha256?: string | null };
}

/** An ApprovalToolset approving everything, recording each payload with its diff read. */
export function gatedOn(
  dir: string,
  options: FileSystemToolsetOptions = {},
  onApprove?: (shown: Shown) => void | Promise<void>,
): { toolset: FileSystemToolset; gated: ApprovalToolset; shown: Shown[] } {
  const toolset = toolsetOn(dir, options);
  const shown: Shown[] = [];
  const gated = new ApprovalToolset(toolset, {
    approve: async (req) => {
      const s = { toolName: req.toolName, payload: structuredClone(req.payload) as Shown['payload'] };
      shown.push(s);
      await onApprove?.(s);
      return { approved: true };
    },
  });
  return { toolset, gated, shown };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
