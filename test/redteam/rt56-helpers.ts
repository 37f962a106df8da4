// Red team rt56: helpers (public API only, real temp directories).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function tmp(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt56-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return dir;
}

export function toolsetOn(dir: string): FileSystemToolset {
  return new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
}

// The unicode level's fold, as docs/tools.md describes it (typographic → ASCII).
const CLASSES: Array<[RegExp, string]> = [
  [/[\u2018\u2019\u201A\u201B\u2032\u00B4]/g, "'"],
  [/[\u201C\u201D\u201E\u201F\u2033]/g, '"'],
  [/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, '-'],
  [/\u2026/g, '...'],
  [/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, ' '],
];
export const fold = (s: string): string => CLASSES.reduce((o, [re, a]) => o.replace(re, a), s);

/** Edits one file with edit_file (a dry run first), returning the result, the bytes and the dry run. */
export async function editOnce(content: string, args: Record<string, unknown>, tool = 'edit_file') {
  const dir = tmp({ 'f.txt': content });
  const ts = toolsetOn(dir);
  const dry = await ts.callTool(tool, { path: '/f.txt', ...args, dryRun: true });
  const r = await ts.callTool(tool, { path: '/f.txt', ...args });
  const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
  return { r, dry, after, dir };
}
