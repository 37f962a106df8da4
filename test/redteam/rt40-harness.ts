// rt40 helpers: a real temp project, hashed reads (all pages), edit_lines calls, disk checks.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { ToolOutcome } from '../../src/index.js';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

export function setup(content: string, name = 'f.txt') {
  const dir = tempDir({ [name]: content });
  const file = path.join(dir, name);
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  return { dir, file, ts, vpath: `/${name}` };
}

/** All anchors of a hashed read (every page), as `LINE#HASH`. */
export async function readAnchors(
  ts: { callTool(n: string, a: unknown): Promise<ToolOutcome> },
  vpath: string,
  opts: { offset?: number; limit?: number } = {},
): Promise<string[]> {
  const out: string[] = [];
  let off = opts.offset ?? 1;
  for (;;) {
    const r = await ts.callTool('read_file', {
      path: vpath,
      hashes: true,
      offset: off,
      ...(opts.limit ? { limit: opts.limit } : {}),
    });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    const data = r.data as { content: string; next_offset: number | null };
    for (const l of data.content.split('\n')) out.push(l.slice(0, l.indexOf('|')));
    if (data.next_offset == null || opts.limit) break;
    off = data.next_offset;
  }
  return out;
}

export const ANCHOR_CODES = [
  'anchor_stale',
  'anchor_ambiguous',
  'anchor_context_ambiguous',
  'anchor_low_entropy',
];

/** Either the disk equals `intended`, or the call was refused with an anchor_* code and disk is `before`. */
export function expectExactOrRefused(
  r: ToolOutcome,
  before: string,
  after: string,
  intended: string,
  what = '',
) {
  if (r.ok) {
    expect(after, `${what}: edit_lines succeeded but did not edit the line read`).toBe(intended);
  } else {
    expect(ANCHOR_CODES, `${what}: ${r.error.code}: ${r.error.message}`).toContain(r.error.code);
    expect(after, `${what}: refused but disk changed`).toBe(before);
  }
}

export const lines = (s: string) => s.split('\n');
export const read = (f: string) => fs.readFileSync(f, 'utf8');
