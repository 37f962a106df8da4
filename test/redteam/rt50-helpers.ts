import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

/** A temp directory the caller removes (rm): several tests share one. */
export function mkdir(): string {
  return tempDir({}, { keep: true });
}
export function rm(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}
export function raw(dir: string, limits?: Record<string, number>) {
  return new FileSystemToolset(
    Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }),
    limits ? { limits } : {},
  );
}
export function gated(dir: string) {
  const payloads: any[] = [];
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const g = new ApprovalToolset(ts, {
    approve: (r: any) => {
      payloads.push(r.payload);
      return { approved: true };
    },
  });
  return { g, payloads, ts };
}
export function put(dir: string, name: string, content: string | Buffer) {
  writeFileSync(join(dir, name), content);
}
export function get(dir: string, name: string): string {
  return readFileSync(join(dir, name), 'utf8');
}

/** The `LINE#HASH|content` lines of a hashed read. */
export function parseAnchors(content: string) {
  return content.split('\n').map((l) => {
    const m = /^(\d+)#([0-9a-f]+)\|(.*)$/s.exec(l);
    if (!m) throw new Error(`bad line ${JSON.stringify(l)}`);
    return { line: Number(m[1]), hash: m[2]!, text: m[3]! };
  });
}

/** Apply a unified diff (lines split at \n; content includes any \r) to old text. Strict: context must match. */
export function applyUnified(old: string, diff: string): string {
  // split old into lines with terminators
  const oldLines: string[] = [];
  let i = 0;
  while (i < old.length) {
    const j = old.indexOf('\n', i);
    if (j < 0) {
      oldLines.push(old.slice(i));
      break;
    }
    oldLines.push(old.slice(i, j + 1));
    i = j + 1;
  }
  const dl = diff.split('\n');
  if (dl[dl.length - 1] === '') dl.pop();
  let k = 0;
  while (k < dl.length && !dl[k]!.startsWith('@@')) k++;
  const out: string[] = [];
  let pos = 0; // index into oldLines
  while (k < dl.length) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(dl[k]!);
    if (!m) throw new Error(`bad hunk header at diff line ${k}: ${JSON.stringify(dl[k])}`);
    const oStart = Number(m[1]);
    const oCount = m[2] === undefined ? 1 : Number(m[2]);
    const nCount = m[4] === undefined ? 1 : Number(m[4]);
    const startIdx = oCount === 0 ? oStart : oStart - 1;
    if (startIdx < pos) throw new Error(`overlapping hunk at ${dl[k]}`);
    while (pos < startIdx) out.push(oldLines[pos++]!);
    k++;
    let oc = 0;
    let nc = 0;
    let lastKind = '';
    while (k < dl.length && !dl[k]!.startsWith('@@')) {
      const line = dl[k]!;
      const tag = line[0];
      const body = line.slice(1);
      if (tag === '\\') {
        // previous line has no newline
        if (lastKind === ' ' || lastKind === '+') {
          const o = out[out.length - 1]!;
          if (o.endsWith('\n')) out[out.length - 1] = o.slice(0, -1);
        }
        if (lastKind === '-' || lastKind === ' ') {
          // old side had no newline: check
        }
        k++;
        continue;
      }
      if (tag === ' ' || tag === '-') {
        const ol = oldLines[pos];
        if (ol === undefined) throw new Error(`diff runs past old end at ${JSON.stringify(line)}`);
        const olBody = ol.endsWith('\n') ? ol.slice(0, -1) : ol;
        if (olBody !== body)
          throw new Error(
            `context mismatch at old line ${pos + 1}: diff ${JSON.stringify(body)} vs file ${JSON.stringify(olBody)}`,
          );
        pos++;
        oc++;
        if (tag === ' ') {
          out.push(`${body}\n`);
          nc++;
        }
      } else if (tag === '+') {
        out.push(`${body}\n`);
        nc++;
      } else {
        throw new Error(`bad diff line ${JSON.stringify(line)}`);
      }
      lastKind = tag;
      k++;
    }
    if (oc !== oCount || nc !== nCount)
      throw new Error(`hunk counts wrong: header -${oCount} +${nCount}, body -${oc} +${nc}`);
  }
  while (pos < oldLines.length) out.push(oldLines[pos++]!);
  // If old had no final newline and the last line was not touched, restore
  const res = out.join('');
  if (!old.endsWith('\n') && old.length > 0) {
    // last old line without newline: if copied verbatim via pos loop, fine; if via context it got a \n added unless marker
  }
  return res;
}
