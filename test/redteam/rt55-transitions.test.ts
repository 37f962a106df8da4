// rt55: a big file changing kind between calls (BOM dropped -> ASCII, ASCII -> non-ASCII -> ASCII),
// special modes, hard links, fuzzy replace_all over many blocks; every step's bytes, every undo exact.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyStrict,
  bigText,
  bytesOf,
  gatedOn,
  MiB,
  type Shape,
  sha,
  strip,
  tmp,
  toolsetOn,
  WHOLE_READ,
} from './rt55-helpers.js';

const ASCII_BOM: Shape = { chars: 'ascii', eol: '\n', bom: true, finalNewline: true, lineLen: 60 };
const ASCII_CRLF: Shape = { chars: 'ascii', eol: '\r\n', bom: false, finalNewline: true, lineLen: 60 };

describe('rt55 transitions of a big file', () => {
  it('ASCII with a BOM: the BOM edited away (the file turns ASCII), edits, copy, undo x4 back to the BOM', async () => {
    const text = bigText(2 * MiB + 1, ASCII_BOM, 1);
    const raw = Buffer.from(text);
    const dir = tmp({ 'a.txt': raw });
    const { gated, shown } = gatedOn(dir, { limits: WHOLE_READ });
    const states = [text];
    const step = async (tool: string, args: Record<string, unknown>, next: string) => {
      const out = (await gated.callTool(tool, args)) as any;
      expect(out.ok, JSON.stringify(out.error)).toBe(true);
      expect(bytesOf(dir, 'a.txt').toString('utf8') === next, `${tool} wrote other bytes`).toBe(true);
      const d = shown.at(-1)!.payload.unifiedDiff;
      if (d !== undefined) expect(applyStrict(states.at(-1)!, d) === next).toBe(true);
      states.push(next);
    };
    await step(
      'edit_file',
      { path: '/a.txt', old_string: '\ufeff<<M000000>>', new_string: '<<M000000>>' },
      text.slice(1),
    );
    const h = (await gated.callTool('read_file', { path: '/a.txt', hashes: true })) as any;
    expect(strip(h.data.content, true) === text.slice(1).replace(/\n$/, '')).toBe(true);
    const lineOf97 = text
      .slice(1)
      .split('\n')
      .findIndex((l) => l.startsWith('<<M000097>>'));
    const anchor = h.data.content.split('\n')[lineOf97].split('|')[0];
    const t2lines = text.slice(1).split('\n');
    t2lines[lineOf97] = 'replaced by anchor';
    await step(
      'edit_lines',
      {
        path: '/a.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: 'replaced by anchor' }],
        sanity: 'off',
      },
      t2lines.join('\n'),
    );
    const t3 = t2lines.join('\n').replace('<<M000194>>', '<<M000194>>ü');
    await step('edit_file', { path: '/a.txt', old_string: '<<M000194>>', new_string: '<<M000194>>ü' }, t3);
    const c = (await gated.callTool('copy_file', { source: '/a.txt', destination: '/b.txt' })) as any;
    expect(c.ok, JSON.stringify(c.error)).toBe(true);
    expect(bytesOf(dir, 'b.txt').toString('utf8') === t3).toBe(true);
    // undo: the copy, then each edit, newest first
    expect(((await gated.undo()) as any).ok).toBe(true);
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
    for (const back of states.slice(0, -1).reverse()) {
      const u = (await gated.undo()) as any;
      expect(u.ok, JSON.stringify(u.error)).toBe(true);
      expect(bytesOf(dir, 'a.txt').toString('utf8') === back).toBe(true);
    }
    expect(bytesOf(dir, 'a.txt').equals(raw)).toBe(true);
    const r = (await gated.callTool('read_file', { path: '/a.txt' })) as any;
    expect(r.data.sha256).toBe(sha(raw));
  });

  it('ASCII -> non-ASCII (write_file) -> edit -> the original bytes again (write_file) -> undo x3', async () => {
    const text = bigText(3 * MiB, ASCII_CRLF, 2);
    const raw = Buffer.from(text);
    const dir = tmp({ 'a.txt': raw });
    const ts = toolsetOn(dir, { limits: WHOLE_READ });
    const t1 = text.replace('<<M000097>>', '<<M000097>>€');
    const t2 = t1.replace('<<M000000>>', '<<M000000>>\r\nnew line');
    for (const [tool, args, next] of [
      ['write_file', { path: '/a.txt', content: t1 }, t1],
      ['edit_file', { path: '/a.txt', old_string: '<<M000000>>', new_string: '<<M000000>>\nnew line' }, t2],
      ['write_file', { path: '/a.txt', content: text }, text],
    ] as const) {
      const out = (await ts.callTool(tool, args)) as any;
      expect(out.ok, JSON.stringify(out.error)).toBe(true);
      expect(bytesOf(dir, 'a.txt').toString('utf8') === next).toBe(true);
      const r = (await ts.callTool('read_file', { path: '/a.txt' })) as any;
      expect(r.data.sha256).toBe(sha(next));
    }
    for (const back of [t2, t1, text]) {
      const u = (await ts.undo()) as any;
      expect(u.ok, JSON.stringify(u.error)).toBe(true);
      expect(bytesOf(dir, 'a.txt').toString('utf8') === back).toBe(true);
    }
  });

  it('special modes survive edit, undo, delete + undo, move + undo', async () => {
    for (const mode of [0o4755, 0o2640, 0o1700, 0o000, 0o777]) {
      const text = bigText(MiB + 5, ASCII_CRLF, mode);
      const raw = Buffer.from(text);
      const dir = tmp({ 'a.txt': raw });
      fs.chmodSync(path.join(dir, 'a.txt'), mode);
      const modeOf = (n: string) => fs.statSync(path.join(dir, n)).mode & 0o7777;
      const ts = toolsetOn(dir);
      expect(
        (
          (await ts.callTool('edit_file', {
            path: '/a.txt',
            old_string: '<<M000000>>',
            new_string: 'x',
          })) as any
        ).ok,
      ).toBe(true);
      expect(modeOf('a.txt')).toBe(mode);
      expect(((await ts.undo()) as any).ok).toBe(true);
      expect(modeOf('a.txt')).toBe(mode);
      expect(((await ts.callTool('delete_file', { path: '/a.txt' })) as any).ok).toBe(true);
      expect(((await ts.undo()) as any).ok).toBe(true);
      expect(modeOf('a.txt')).toBe(mode);
      expect(bytesOf(dir, 'a.txt').equals(raw)).toBe(true);
      expect(
        ((await ts.callTool('move_file', { source: '/a.txt', destination: '/m/b.txt' })) as any).ok,
      ).toBe(true);
      expect(modeOf('m/b.txt')).toBe(mode);
      expect(((await ts.undo()) as any).ok).toBe(true);
      expect(modeOf('a.txt')).toBe(mode);
      expect(bytesOf(dir, 'a.txt').equals(raw)).toBe(true);
    }
  });

  it('a hard-linked big file: an edit replaces the link (the other name keeps its bytes), undo restores', async () => {
    const text = bigText(2 * MiB, ASCII_CRLF, 4);
    const raw = Buffer.from(text);
    const dir = tmp({ 'a.txt': raw });
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'h.txt'));
    const ts = toolsetOn(dir);
    expect(
      (
        (await ts.callTool('edit_file', {
          path: '/a.txt',
          old_string: '<<M000000>>',
          new_string: 'y',
        })) as any
      ).ok,
    ).toBe(true);
    expect(bytesOf(dir, 'h.txt').equals(raw)).toBe(true);
    expect(bytesOf(dir, 'a.txt').toString('utf8') === text.replace('<<M000000>>', 'y')).toBe(true);
    expect(((await ts.undo()) as any).ok).toBe(true);
    expect(bytesOf(dir, 'a.txt').equals(raw)).toBe(true);
    expect(bytesOf(dir, 'h.txt').equals(raw)).toBe(true);
  });

  it('fuzzy (indentation) replace_all over 40k CRLF blocks: unchanged lines keep their bytes, diff == write, undo', async () => {
    const block = (i: number) => `\tif (x${i % 3}) {\r\n\t\treturn 1;  \r\n\t}\r\n`;
    const parts: string[] = [];
    for (let i = 0; i < 40_000; i++) parts.push(block(i));
    const text = parts.join('');
    const dir = tmp({ 'a.txt': text });
    const { gated, shown } = gatedOn(dir);
    const out = (await gated.callTool('edit_file', {
      path: '/a.txt',
      old_string: '  if (x1) {\n      return 1;\n  }',
      new_string: '  if (x1) {\n      return 2;\n  }',
      replace_all: true,
    })) as any;
    expect(out.ok, JSON.stringify(out.error)).toBe(true);
    expect(out.data.replacements_made).toBe(13_333);
    const expected = parts
      .map((p, i) => (i % 3 === 1 ? p.replace('\t\treturn 1;  \r\n', '\t\treturn 2;\r\n') : p))
      .join('');
    const got = bytesOf(dir, 'a.txt').toString('utf8');
    expect(got === expected, JSON.stringify(got.slice(0, 200))).toBe(true);
    expect(applyStrict(text, shown[0]!.payload.unifiedDiff!) === got).toBe(true);
    expect(((await gated.undo()) as any).ok).toBe(true);
    expect(bytesOf(dir, 'a.txt').toString('utf8') === text).toBe(true);
  });

  it('unicode-level replace_all over 100k lines (typographic quotes in the request, ASCII in the file), CRLF + BOM', async () => {
    const parts: string[] = [];
    for (let i = 0; i < 100_000; i++) parts.push(i % 2 ? '  say("hi");' : `  x = 'é${i}';`);
    const text = `\ufeff${parts.join('\r\n')}\r\n`;
    const dir = tmp({ 'a.txt': text });
    const { gated, shown } = gatedOn(dir);
    const out = (await gated.callTool('edit_file', {
      path: '/a.txt',
      old_string: 'say(“hi”);',
      new_string: 'say(“bye”);',
      replace_all: true,
    })) as any;
    expect(out.ok, JSON.stringify(out.error)).toBe(true);
    const got = bytesOf(dir, 'a.txt').toString('utf8');
    const expected = `\ufeff${parts.map((p) => p.replace('say("hi");', 'say("bye");')).join('\r\n')}\r\n`;
    expect(got === expected, JSON.stringify(got.slice(0, 120))).toBe(true);
    expect(applyStrict(text, shown[0]!.payload.unifiedDiff!) === got).toBe(true);
    expect(((await gated.undo()) as any).ok).toBe(true);
    expect(bytesOf(dir, 'a.txt').toString('utf8') === text).toBe(true);
  });

  it('a 300k-character line cut in a hashed read: its anchor replaces the whole line, nothing else', async () => {
    const long = 'q'.repeat(300_000);
    const text = `first\n${long}\nlast é\n`;
    const dir = tmp({ 'a.txt': text });
    const ts = toolsetOn(dir);
    const h = (await ts.callTool('read_file', { path: '/a.txt', hashes: true, offset: 2, limit: 1 })) as any;
    expect(h.data.truncated).toBe(true);
    const anchor = h.data.content.split('|')[0];
    const out = (await ts.callTool('edit_lines', {
      path: '/a.txt',
      operations: [{ op: 'replace_line', hash: anchor, content: 'short' }],
    })) as any;
    expect(out.ok, JSON.stringify(out.error)).toBe(true);
    expect(bytesOf(dir, 'a.txt').toString('utf8')).toBe('first\nshort\nlast é\n');
    expect(((await ts.undo()) as any).ok).toBe(true);
    expect(bytesOf(dir, 'a.txt').toString('utf8') === text).toBe(true);
  });

  // Was broken (fixed; red team rt55): move_file onto a hard link of the same file (overwrite: true) reports success, but rename(2) between two
  // names of one inode does nothing: the source is still there, the result and history() claim a move, and undo()
  // then refuses ("exists again").
  it('move_file onto a hard link of itself: the source name is gone afterwards, or the move is refused', async () => {
    const text = bigText(2 * MiB, ASCII_CRLF, 6);
    const dir = tmp({ 'a.txt': text });
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
    const ts = toolsetOn(dir);
    const m = (await ts.callTool('move_file', {
      source: '/a.txt',
      destination: '/b.txt',
      overwrite: true,
    })) as any;
    if (m.ok) {
      expect(fs.existsSync(path.join(dir, 'a.txt')), 'move_file said ok but /a.txt is still there').toBe(
        false,
      );
      expect(bytesOf(dir, 'b.txt').toString('utf8') === text).toBe(true);
      expect(((await ts.undo()) as any).ok).toBe(true);
    }
    expect(bytesOf(dir, 'a.txt').toString('utf8') === text).toBe(true);
  });
});
