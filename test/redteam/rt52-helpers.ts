// Red team rt52: shared helpers (real temp dirs, public API only).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

function toolset(content: string) {
  const dir = mkdtempSync(join(tmpdir(), 'rt52-'));
  writeFileSync(join(dir, 'f.txt'), content);
  const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  return { tools, read: () => readFileSync(join(dir, 'f.txt'), 'utf8') };
}

export const sha = (s: string): string => createHash('sha256').update(Buffer.from(s, 'utf8')).digest('hex');

export async function editFile(content: string, old_string: string, new_string: string) {
  const { tools, read } = toolset(content);
  const outcome = await tools.callTool('edit_file', { path: '/f.txt', old_string, new_string });
  return { ok: outcome.ok, out: read() };
}

export async function patchFile(content: string, unified_diff: string) {
  const { tools, read } = toolset(content);
  const outcome = await tools.callTool('patch_file', {
    path: '/f.txt',
    unified_diff,
    base_sha256: sha(content),
  });
  return { ok: outcome.ok, out: read() };
}

export const indentOf = (line: string): number => line.length - line.trimStart().length;
export const lineWith = (text: string, needle: string): string =>
  text.split('\n').find((l) => l.trim() === needle)!;
