// rt44: a twin's anchor exactly as a hashed read showed it, used where the toolset holds no read of the
// file (the read was under another spelling — a symlink inside the sandbox — or by an earlier toolset
// instance), after another agent appended one line. The twin's anchor is bound to the old version, so the
// current version shows it for no line; the no-read ladder (src/edit/resolve-anchor.ts resolveAnchor, no
// `held`) then tries `index.contextMatches(hash)`: the SPEC context hash (hash64 of previous/line/next),
// a different hash family from the anchors reads show. One line in 16.7 million matches a given 6-digit
// anchor by accident; the matching line is taken with no line-number check and no low-entropy check.
// Here the appended line is chosen so that it matches (found by search, as one new line in 16.7M would).
// The twin read (line 3, `}`) is still at line 3, unchanged; edit_lines edits the appended line instead.
// With a 4-digit prefix (edit_lines accepts 4-8 digits) it is one line in 65,536: any file of some
// thousands of lines has such lines.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextHash } from '../../src/edit/line-hash.js';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';
import { ANCHOR_CODES, readAnchors } from './rt40-harness.js';

const V0 = ['function f() {', '  if (x) {', '  }', '}', 'function g() {', '  if (y) {', '  }', '}'];
const text = (l: string[]) => `${l.join('\n')}\n`;

/** A line `k = N;` whose spec context hash (after `prev`, before nothing) starts with `want`. */
function findLine(prev: string, want: string): string {
  const target = Number.parseInt(want, 16);
  const bits = 4 * want.length;
  const pre = `${prev}\u0000k = `;
  let a0 = 0x811c9dc5;
  for (let i = 0; i < pre.length; i++) a0 = Math.imul(a0 ^ pre.charCodeAt(i), 0x01000193);
  for (let n = 0; n < 1 << 30; n++) {
    const s = `${n};\u0000`;
    let a = a0;
    for (let i = 0; i < s.length; i++) a = Math.imul(a ^ s.charCodeAt(i), 0x01000193);
    a ^= a >>> 16;
    a = Math.imul(a, 0x85ebca6b);
    a ^= a >>> 13;
    if ((a >>> 0) >>> (32 - bits) === target) return `k = ${n};`;
  }
  throw new Error('not found');
}

async function scenario(how: 'symlink' | 'new toolset', digits: 4 | 6) {
  const dir = tempDir({ 'f.txt': text(V0) });
  const file = path.join(dir, 'f.txt');
  fs.symlinkSync('f.txt', path.join(dir, 'link.txt'));
  const mk = () => new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  let ts = mk();
  const anchors = await readAnchors(ts, how === 'symlink' ? '/link.txt' : '/f.txt');
  const [num, hash] = anchors[2]!.split('#') as [string, string]; // the inner `}` of f(): a twin
  expect(num).toBe('3');
  const want = hash.slice(0, digits);
  const extra = findLine('}', want);
  const V1 = [...V0, extra];
  expect(contextHash(V1, V1.length - 1, digits)).toBe(want);
  fs.writeFileSync(file, text(V1)); // another agent appends one line
  if (how === 'new toolset') ts = mk();
  const before = fs.readFileSync(file, 'utf8');
  const r: any = await ts.callTool('edit_lines', {
    path: '/f.txt',
    operations: [{ op: 'replace_line', hash: `3#${want}`, content: '  } // end if' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(file, 'utf8');
  return { r, before, after, V1 };
}

describe('rt44: no held read, twin anchor of the version read, one line appended since', () => {
  for (const how of ['symlink', 'new toolset'] as const)
    for (const digits of [6, 4] as const)
      it(`read via ${how}, ${digits}-digit anchor: line 3 edited or refused, never the appended line`, async () => {
        const { r, before, after, V1 } = await scenario(how, digits);
        if (r.ok) {
          const intended = V1.slice();
          intended[2] = '  } // end if';
          expect(after, `edited: ${r.data.diff}`).toBe(text(intended));
        } else {
          expect(ANCHOR_CODES).toContain(r.error.code);
          expect(after).toBe(before);
        }
      });
});
