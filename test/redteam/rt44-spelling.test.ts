// rt44: a hashed read under one path spelling, an edit_lines call under another (a symlink inside the
// sandbox, a hard link, a moved file). The toolset keys what it showed by the spelling, so the edit finds
// no held read and falls back to the "no read" ladder, which takes any line whose anchor is the given hash
// — whatever line number came with it. docs/tools.md: "Without a hashed read of the file, a line found away
// from its number is anchor_stale." When the line read was edited since and a copy of its old text sits
// elsewhere, that copy is edited: silently wrong. The same happens with a new toolset instance (a restarted
// agent process whose conversation still holds the anchors).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';
import { ANCHOR_CODES, readAnchors } from './rt40-harness.js';

const V0 = ['alpha();', 'target();', 'beta();', 'gamma();', 'delta();'];
// Outside: the line read (target();) edited, a copy of its old text added at the end.
const V1 = ['alpha();', 'TARGET_RENAMED();', 'beta();', 'gamma();', 'delta();', 'target();'];
const text = (l: string[]) => `${l.join('\n')}\n`;

type Spelling = 'symlink' | 'hardlink' | 'moved' | 'same' | 'new toolset';

async function scenario(kind: Spelling) {
  const dir = tempDir({ 'f.txt': text(V0) });
  const file = path.join(dir, 'f.txt');
  let readPath = '/f.txt';
  let editPath = '/f.txt';
  if (kind === 'symlink') {
    fs.symlinkSync('f.txt', path.join(dir, 'link.txt'));
    readPath = '/link.txt';
  } else if (kind === 'hardlink') {
    fs.linkSync(file, path.join(dir, 'hard.txt'));
    readPath = '/hard.txt';
  }
  let ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  const anchors = await readAnchors(ts, readPath);
  // The agent's process restarted (or the next turn is served by another toolset instance): the
  // conversation still holds the anchors.
  if (kind === 'new toolset')
    ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
  const anchor = anchors[1]!; // 2#H for target();
  expect(anchor.startsWith('2#')).toBe(true);
  let onDisk = file;
  if (kind === 'moved') {
    const mv = await ts.callTool('move_file', { source: '/f.txt', destination: '/g.txt' });
    expect(mv.ok, JSON.stringify(!mv.ok && mv.error)).toBe(true);
    editPath = '/g.txt';
    onDisk = path.join(dir, 'g.txt');
  }
  fs.writeFileSync(onDisk, text(V1)); // in place: a hard link keeps sharing the inode
  const before = fs.readFileSync(onDisk, 'utf8');
  const r = await ts.callTool('edit_lines', {
    path: editPath,
    operations: [{ op: 'replace_line', hash: anchor, content: 'EDITED();' }],
    sanity: 'off',
  });
  const after = fs.readFileSync(onDisk, 'utf8');
  return { r, before, after };
}

describe('rt44: anchors of a read under another path spelling', () => {
  for (const kind of ['same', 'symlink', 'hardlink', 'moved', 'new toolset'] as Spelling[])
    it(`read via ${kind}, line edited outside, copy of its old text elsewhere: refused, never the copy`, async () => {
      const { r, before, after } = await scenario(kind);
      if (r.ok) {
        // The line read (line 2) is gone: no success can be the line read.
        expect(after, `edit_lines succeeded: ${JSON.stringify(r.data)}`).toBe(before);
      }
      expect(r.ok).toBe(false);
      if (!r.ok) expect(ANCHOR_CODES).toContain(r.error.code);
      expect(after).toBe(before);
    });
});

// Held (passing): spellings that normalise to one virtual path share what was shown; a file replaced by a
// same-bytes copy (new inode, rename over it) is the version read.
describe('rt44: normalised spellings and same-bytes replacement (held)', () => {
  const T = ['if (a) {', '  go();', '}', 'if (b) {', '  go();', '}', 'end();'];
  for (const [readP, editP] of [
    ['/./f.txt', '//f.txt'],
    ['f.txt', '/d/../f.txt'],
    ['/f.txt/', '/f.txt'],
  ] as const)
    it(`read ${readP}, outside change, edit ${editP}: the twin read is edited`, async () => {
      const dir = tempDir({ 'f.txt': text(T), 'd/x.txt': 'x\n' });
      const file = path.join(dir, 'f.txt');
      const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
      const a = await readAnchors(ts, readP);
      fs.writeFileSync(file, text(['// top', ...T]));
      const r: any = await ts.callTool('edit_lines', {
        path: editP,
        operations: [{ op: 'replace_line', hash: a[4]!, content: '  stop();' }],
      });
      const want = ['// top', ...T];
      want[5] = '  stop();';
      if (r.ok) expect(fs.readFileSync(file, 'utf8')).toBe(text(want));
      else expect(ANCHOR_CODES).toContain(r.error.code);
      expect(r.ok, JSON.stringify(r.error)).toBe(true);
    });
  it('same-bytes copy renamed over the file: a twin anchor with a slipped number still names its line', async () => {
    const dir = tempDir({ 'f.txt': text(T) });
    const file = path.join(dir, 'f.txt');
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    const a = await readAnchors(ts, '/f.txt');
    fs.copyFileSync(file, path.join(dir, 'tmp'));
    fs.renameSync(path.join(dir, 'tmp'), file);
    const slipped = `4#${a[4]!.split('#')[1]}`; // line 5's anchor given with number 4
    const r: any = await ts.callTool('edit_lines', {
      path: '/f.txt',
      operations: [{ op: 'replace_line', hash: slipped, content: '  stop();' }],
    });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const want = T.slice();
    want[4] = '  stop();';
    expect(fs.readFileSync(file, 'utf8')).toBe(text(want));
  });
});
