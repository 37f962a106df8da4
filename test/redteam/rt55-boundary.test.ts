// rt55: sizes around 1 MiB (the sync/async and held-as-text boundary), every shape:
// whole read, paged read, hashed read, gated edit (diff == write), undo (bytes and mode).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyStrict,
  bigText,
  bytesOf,
  gatedOn,
  MiB,
  modelText,
  modeOf,
  SHAPES,
  sha,
  strip,
  tmp,
  toolsetOn,
  WHOLE_READ,
} from './rt55-helpers.js';

const SIZES = [MiB - 1, MiB, MiB + 1, 3 * MiB + 7];

describe('rt55 boundary sizes', () => {
  for (const [name, shape] of SHAPES) {
    for (const size of SIZES) {
      it(`${name}, ${size} bytes: reads, hashed read, paged read, edit, undo`, async () => {
        const text = bigText(size, shape, size);
        const raw = Buffer.from(text, 'utf8');
        expect(raw.length).toBe(size);
        const dir = tmp({ 'f.txt': raw });
        fs.chmodSync(path.join(dir, 'f.txt'), 0o640);
        const whole = toolsetOn(dir, { limits: WHOLE_READ });
        // a read shows the lines: the final newline ends the last one
        const shownText = (t: string) => modelText(t).replace(/\n$/, '');

        const r = (await whole.callTool('read_file', { path: '/f.txt' })) as any;
        expect(r.ok).toBe(true);
        expect(r.data.sha256).toBe(sha(raw));
        expect(r.data.content).toBe(shownText(text));
        expect(r.data.truncated).toBe(false);

        const h = (await whole.callTool('read_file', { path: '/f.txt', hashes: true })) as any;
        expect(h.ok).toBe(true);
        expect(h.data.sha256).toBe(sha(raw));
        expect(strip(h.data.content, true)).toBe(shownText(text));

        // paged: pages joined are the whole text
        const pager = toolsetOn(dir, { limits: { readMaxLines: 40_000, readMaxChars: 2 * MiB } });
        for (const hashes of [false, true]) {
          const pages: string[] = [];
          let offset: number | null = 1;
          let guard = 0;
          while (offset !== null && guard++ < 200) {
            const p = (await pager.callTool('read_file', {
              path: '/f.txt',
              offset,
              limit: 40_000,
              hashes,
            })) as any;
            expect(p.ok, JSON.stringify(p.error)).toBe(true);
            expect(p.data.sha256).toBe(sha(raw));
            expect(p.data.start_line).toBe(offset);
            pages.push(strip(p.data.content, hashes));
            offset = p.data.next_offset;
          }
          // a page ends with its last line's text; a newline joins pages
          expect(pages.join('\n')).toBe(shownText(text));
        }

        // gated edit: the first marker becomes a non-ASCII one (an ASCII file turns non-ASCII)
        const { gated, shown } = gatedOn(dir);
        const e = (await gated.callTool('edit_file', {
          path: '/f.txt',
          old_string: '<<M000000>>',
          new_string: '<<é-M0>>',
        })) as any;
        expect(e.ok, JSON.stringify(e.error)).toBe(true);
        const expected = text.replace('<<M000000>>', '<<é-M0>>');
        const after = bytesOf(dir, 'f.txt');
        expect(after.equals(Buffer.from(expected, 'utf8'))).toBe(true);
        expect(e.data.sha256).toBe(sha(after));
        expect(modeOf(dir, 'f.txt')).toBe(0o640);
        expect(shown).toHaveLength(1);
        expect(shown[0]!.payload.baseSha256).toBe(sha(raw));
        expect(applyStrict(text, shown[0]!.payload.unifiedDiff!)).toBe(expected);

        // the edited version read back through the first toolset (its cache held the old one)
        const r2 = (await whole.callTool('read_file', { path: '/f.txt' })) as any;
        expect(r2.data.content).toBe(shownText(expected));
        expect(r2.data.sha256).toBe(sha(after));

        const u = (await gated.undo()) as any;
        expect(u.ok, JSON.stringify(u.error)).toBe(true);
        expect(bytesOf(dir, 'f.txt').equals(raw)).toBe(true);
        expect(modeOf(dir, 'f.txt')).toBe(0o640);
        const r3 = (await whole.callTool('read_file', { path: '/f.txt' })) as any;
        expect(r3.data.content).toBe(shownText(text));
        expect(r3.data.sha256).toBe(sha(raw));
      });
    }
  }
});

describe('rt55 growing and shrinking across 1 MiB', () => {
  for (const [name, shape] of SHAPES.slice(0, 5)) {
    it(`${name}: MiB-1 -> MiB+1 (edit) -> MiB-1 (edit) -> undo -> undo`, async () => {
      const text = bigText(MiB - 1, shape, 7);
      const raw = Buffer.from(text);
      const dir = tmp({ 'f.txt': raw });
      fs.chmodSync(path.join(dir, 'f.txt'), 0o751);
      const { gated, shown } = gatedOn(dir);
      // +2 bytes
      const grow = (await gated.callTool('edit_file', {
        path: '/f.txt',
        old_string: '<<M000097>>',
        new_string: '<<M000097>>ab',
      })) as any;
      expect(grow.ok, JSON.stringify(grow.error)).toBe(true);
      const t1 = text.replace('<<M000097>>', '<<M000097>>ab');
      expect(bytesOf(dir, 'f.txt').length).toBe(MiB + 1);
      expect(bytesOf(dir, 'f.txt').equals(Buffer.from(t1))).toBe(true);
      expect(applyStrict(text, shown[0]!.payload.unifiedDiff!)).toBe(t1);
      // -2 bytes, and one ASCII char turned into a 2-byte one (size MiB)
      const shrink = (await gated.callTool('edit_file', {
        path: '/f.txt',
        old_string: '<<M000194>>',
        new_string: '<<M00019ñ',
      })) as any;
      expect(shrink.ok, JSON.stringify(shrink.error)).toBe(true);
      const t2 = t1.replace('<<M000194>>', '<<M00019ñ');
      expect(bytesOf(dir, 'f.txt').equals(Buffer.from(t2))).toBe(true);
      expect(applyStrict(t1, shown[1]!.payload.unifiedDiff!)).toBe(t2);
      // write_file across the boundary the other way
      const t3 = `${t2.slice(0, 1000)}${t2.slice(2000)}`;
      const w = (await gated.callTool('write_file', { path: '/f.txt', content: t3 })) as any;
      expect(w.ok, JSON.stringify(w.error)).toBe(true);
      expect(bytesOf(dir, 'f.txt').equals(Buffer.from(t3))).toBe(true);
      expect(applyStrict(t2, shown[2]!.payload.unifiedDiff!)).toBe(t3);
      expect(modeOf(dir, 'f.txt')).toBe(0o751);
      for (const back of [t2, t1, text]) {
        const u = (await gated.undo()) as any;
        expect(u.ok, JSON.stringify(u.error)).toBe(true);
        expect(bytesOf(dir, 'f.txt').equals(Buffer.from(back))).toBe(true);
        expect(modeOf(dir, 'f.txt')).toBe(0o751);
      }
      expect(((await gated.undo()) as any).ok).toBe(false);
    });
  }
});

describe('rt55 texts written in slices (over 4M UTF-16 units)', () => {
  it('write_file of 4.6M units of astral text at odd alignment, an ASCII file edited with a 4.6M-unit astral middle, undo', async () => {
    const astral = `a${'😀'.repeat(2_300_000)}\n`;
    const ascii = bigText(2 * MiB, SHAPES[0]![1], 3);
    const dir = tmp({ 'a.txt': ascii });
    const ts = toolsetOn(dir);
    const w = (await ts.callTool('write_file', { path: '/b.txt', content: astral })) as any;
    expect(w.ok, JSON.stringify(w.error)).toBe(true);
    expect(bytesOf(dir, 'b.txt').equals(Buffer.from(astral))).toBe(true);
    expect(w.data.sha256).toBe(sha(astral));
    const middle = `é${'😀'.repeat(2_300_000)}`;
    const e = (await ts.callTool('edit_file', {
      path: '/a.txt',
      old_string: '<<M000097>>',
      new_string: middle,
    })) as any;
    expect(e.ok, JSON.stringify(e.error)).toBe(true);
    const expected = Buffer.from(ascii.replace('<<M000097>>', () => middle));
    expect(bytesOf(dir, 'a.txt').equals(expected)).toBe(true);
    expect(e.data.sha256).toBe(sha(expected));
    // edit the big non-ASCII result again, then undo both and the write
    const e2 = (await ts.callTool('edit_file', {
      path: '/a.txt',
      old_string: '<<M000000>>',
      new_string: '<<0>>',
    })) as any;
    expect(e2.ok, JSON.stringify(e2.error)).toBe(true);
    expect(
      bytesOf(dir, 'a.txt').equals(Buffer.from(expected.toString('utf8').replace('<<M000000>>', '<<0>>'))),
    ).toBe(true);
    expect(((await ts.undo()) as any).ok).toBe(true);
    expect(bytesOf(dir, 'a.txt').equals(expected)).toBe(true);
    expect(((await ts.undo()) as any).ok).toBe(true);
    expect(bytesOf(dir, 'a.txt').equals(Buffer.from(ascii))).toBe(true);
    expect(((await ts.undo()) as any).ok).toBe(true);
    expect(fs.existsSync(path.join(dir, 'b.txt'))).toBe(false);
  }, 60_000);
});
