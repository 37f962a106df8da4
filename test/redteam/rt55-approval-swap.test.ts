// rt55: a big file changed on disk between the approval and the run (same size in place with
// its times put back, identical bytes under a new inode, identical bytes after edit+undo by
// another toolset) is refused for every tool; what runs unchanged is exactly what was shown.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import {
  applyStrict,
  bigText,
  bytesOf,
  gatedOn,
  MiB,
  type Shape,
  sha,
  tmp,
  toolsetOn,
} from './rt55-helpers.js';

const SHAPES: Array<[string, Shape]> = [
  ['ASCII LF', { chars: 'ascii', eol: '\n', bom: false, finalNewline: true, lineLen: 70 }],
  ['non-ASCII CRLF BOM', { chars: 'astral', eol: '\r\n', bom: true, finalNewline: false, lineLen: 70 }],
];

type Mutation = 'inplace' | 'renamed-identical' | 'inplace-times-kept-twice';

/** Changes a.txt on disk the way `how` says (called inside the approval callback). */
function mutate(dir: string, how: Mutation, at: number): void {
  const file = path.join(dir, 'a.txt');
  const st = fs.statSync(file);
  if (how === 'renamed-identical') {
    const temp = path.join(dir, '.swap-tmp');
    fs.writeFileSync(temp, fs.readFileSync(file));
    fs.chmodSync(temp, st.mode & 0o7777);
    fs.utimesSync(temp, st.atime, st.mtime);
    fs.renameSync(temp, file);
    return;
  }
  // same inode, same size: ASCII bytes over ASCII bytes, then the times put back
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, Buffer.from('<<Q'), 0, 3, at);
  if (how === 'inplace-times-kept-twice') {
    fs.writeSync(fd, Buffer.from('<<M'), 0, 3, at);
    fs.writeSync(fd, Buffer.from('<<Q'), 0, 3, at);
  }
  fs.closeSync(fd);
  fs.utimesSync(file, st.atime, st.mtime);
}

const TOOLS = [
  'edit_file',
  'write_file',
  'patch_file',
  'edit_lines',
  'delete_file',
  'copy_file',
  'move_file',
] as const;

describe('rt55 the file changes between approval and run', () => {
  for (const [label, shape] of SHAPES) {
    for (const how of ['inplace', 'renamed-identical', 'inplace-times-kept-twice'] as Mutation[]) {
      for (const tool of TOOLS) {
        it(`${label}, ${how}, ${tool}: stale_approval, nothing written`, async () => {
          const text = bigText(2 * MiB + 9, shape, 123);
          const raw = Buffer.from(text);
          const dir = tmp({ 'a.txt': raw, 'c.txt': 'old destination\n' });
          fs.chmodSync(path.join(dir, 'a.txt'), 0o604);
          const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]);
          const target = markers[3]!;
          // the in-place change hits another marker (its byte offset)
          const at = raw.indexOf(Buffer.from(markers[5]!));
          const reader = toolsetOn(dir, { limits: { readMaxChars: 64 * MiB, readMaxLines: 10_000_000 } });
          const lineNo = text.slice(0, text.indexOf(target)).split('\n').length;
          let args: Record<string, unknown>;
          let ts: FileSystemToolset | undefined;
          if (tool === 'edit_file') args = { path: '/a.txt', old_string: target, new_string: `${target}!` };
          else if (tool === 'write_file')
            args = { path: '/a.txt', content: text.replace(target, `${target}!`) };
          else if (tool === 'patch_file') {
            const shown = (await reader.callTool('read_file', {
              path: '/a.txt',
              offset: lineNo,
              limit: 1,
            })) as any;
            args = {
              path: '/a.txt',
              base_sha256: sha(raw),
              unified_diff: `--- a/a.txt\n+++ b/a.txt\n@@ -${lineNo},1 +${lineNo},1 @@\n-${shown.data.content}\n+${shown.data.content}!\n`,
            };
          } else if (tool === 'edit_lines') {
            // anchors from a hashed read through the toolset that then edits
            ts = toolsetOn(dir);
            const h = (await ts.callTool('read_file', {
              path: '/a.txt',
              hashes: true,
              offset: lineNo,
              limit: 1,
            })) as any;
            args = {
              path: '/a.txt',
              operations: [{ op: 'replace_line', hash: h.data.content.split('|')[0], content: 'L' }],
              sanity: 'off',
            };
          } else if (tool === 'delete_file') args = { path: '/a.txt' };
          else args = { source: '/a.txt', destination: '/c.txt', overwrite: true };
          const toolset = ts ?? toolsetOn(dir);
          let asked = 0;
          const gated = new ApprovalToolset(toolset, {
            approve: () => {
              asked++;
              mutate(dir, how, at);
              return { approved: true };
            },
          });
          const afterMutation = () => {
            if (how === 'renamed-identical') return raw;
            const b = Buffer.from(raw);
            b.write('<<Q', at);
            return b;
          };
          const out = (await gated.callTool(tool, args)) as any;
          expect(asked).toBe(1);
          expect(out.ok, `ran on a changed file: ${JSON.stringify(out.data ?? {}).slice(0, 200)}`).toBe(
            false,
          );
          expect(out.error.code).toBe('stale_approval');
          // nothing written: a.txt is as the other writer left it, c.txt untouched
          expect(fs.existsSync(path.join(dir, 'a.txt'))).toBe(true);
          expect(bytesOf(dir, 'a.txt').equals(afterMutation())).toBe(true);
          expect(bytesOf(dir, 'c.txt').toString()).toBe('old destination\n');
          expect(((await gated.undo()) as any).ok).toBe(false);
        });
      }
    }
  }

  it('identical bytes after another toolset edited and undid (new inode): refused or applied exactly as shown', async () => {
    for (const [, shape] of SHAPES) {
      const text = bigText(MiB + 1, shape, 5);
      const dir = tmp({ 'a.txt': text });
      const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]);
      const other = toolsetOn(dir);
      const { gated, shown } = gatedOn(dir, {}, async () => {
        expect(
          (
            (await other.callTool('edit_file', {
              path: '/a.txt',
              old_string: markers[2],
              new_string: 'gone',
            })) as any
          ).ok,
        ).toBe(true);
        expect(((await other.undo()) as any).ok).toBe(true);
      });
      const out = (await gated.callTool('edit_file', {
        path: '/a.txt',
        old_string: markers[1],
        new_string: `${markers[1]}é`,
      })) as any;
      if (out.ok) {
        expect(
          bytesOf(dir, 'a.txt').toString('utf8') === applyStrict(text, shown[0]!.payload.unifiedDiff!),
        ).toBe(true);
      } else {
        expect(out.error.code).toBe('stale_approval');
        expect(bytesOf(dir, 'a.txt').toString('utf8') === text).toBe(true);
      }
    }
  });

  it('read approval: the file changed in place (times kept) while the read was on screen is refused, never shown', async () => {
    for (const [, shape] of SHAPES) {
      const text = bigText(2 * MiB + 3, shape, 8);
      const raw = Buffer.from(text);
      const dir = tmp({ 'a.txt': raw });
      const at = raw.indexOf(Buffer.from('<<M000097>>'));
      const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', readApproval: true }), {
        limits: { readMaxChars: 64 * MiB, readMaxLines: 10_000_000 },
      });
      // an approved read first: the version is cached
      const first = new ApprovalToolset(ts, { approve: () => ({ approved: true }) });
      expect(((await first.callTool('read_file', { path: '/a.txt' })) as any).data.sha256).toBe(sha(raw));
      await new Promise((r) => setTimeout(r, 150));
      const gated = new ApprovalToolset(ts, {
        approve: (req) => {
          expect((req.payload as any).baseSha256 ?? sha(raw)).toBe(sha(raw));
          mutate(dir, 'inplace', at);
          return { approved: true };
        },
      });
      const out = (await gated.callTool('read_file', { path: '/a.txt' })) as any;
      if (out.ok) {
        // if it ran, it must show the bytes on disk now, not the approved-and-cached version
        expect(out.data.sha256).toBe(sha(bytesOf(dir, 'a.txt')));
        expect(out.data.content.includes('<<Q000097>>')).toBe(true);
      } else expect(out.error.code).toBe('stale_approval');
    }
  });

  it('a name that was free when approved is taken before the run (write_file create, copy/move with overwrite): refused, kept', async () => {
    for (const tool of ['write_file', 'copy_file', 'move_file'] as const) {
      const text = bigText(2 * MiB, SHAPES[1]![1], 31);
      const dir = tmp({ 'a.txt': text });
      const planted = bigText(2 * MiB, SHAPES[0]![1], 32);
      const { gated } = gatedOn(dir, {}, () => {
        fs.writeFileSync(path.join(dir, 'new.txt'), planted);
      });
      const args =
        tool === 'write_file'
          ? { path: '/new.txt', content: text }
          : { source: '/a.txt', destination: '/new.txt', overwrite: true };
      const out = (await gated.callTool(tool, args)) as any;
      expect(out.ok, `${tool} overwrote a file nobody was shown`).toBe(false);
      expect(out.error.code).toBe('stale_approval');
      expect(bytesOf(dir, 'new.txt').toString('utf8') === planted).toBe(true);
      expect(bytesOf(dir, 'a.txt').toString('utf8') === text).toBe(true);
    }
  });
});
