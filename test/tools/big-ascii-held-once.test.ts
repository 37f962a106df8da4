import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFileBytes, readTextFile } from '../../src/fs/read-text.js';
import { ok, project } from './fixture.js';

/**
 * A big ASCII file is held once, as its text (its bytes are the text's characters):
 * every tool that later needs its bytes (write of the unchanged ends, undo, copy, a
 * hashed read, a read of the bytes) must still get exactly the file's bytes, for
 * ASCII and non-ASCII files alike.
 */
const shape = fc.record({
  lines: fc.integer({ min: 22_000, max: 30_000 }),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  accent: fc.boolean(),
  finalNewline: fc.boolean(),
});

function contentOf(s: {
  lines: number;
  crlf: boolean;
  bom: boolean;
  accent: boolean;
  finalNewline: boolean;
}) {
  const eol = s.crlf ? '\r\n' : '\n';
  const lines = Array.from({ length: s.lines }, (_, i) => `line ${i} ${'x'.repeat(40)}`);
  if (s.accent) lines[s.lines - 3] = 'café au lait';
  return `${s.bom ? '\ufeff' : ''}${lines.join(eol)}${s.finalNewline ? eol : ''}`;
}

const bytesOf = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

describe('a big ASCII file held as its text', () => {
  it('edits, reads, copies and undoes byte for byte (ASCII or not, LF or CRLF, BOM or not)', async () => {
    await fc.assert(
      fc.asyncProperty(shape, fc.integer({ min: 0, max: 21_999 }), async (s, at) => {
        const original = contentOf(s);
        const { dir, toolset } = project({ 'f.txt': original });
        const before = bytesOf(dir, 'f.txt');
        const line = `line ${at} ${'x'.repeat(40)}`;
        // A read and an edit of the same file at once, then a second edit read from the first's.
        const [read] = await Promise.all([
          toolset.callTool('read_file', { path: '/f.txt', offset: at + 1, limit: 2, hashes: true }),
          toolset.callTool('edit_file', { path: '/f.txt', old_string: line, new_string: `${line} edited` }),
        ]);
        const page = ok<{ content: string }>(read).content;
        expect(page.split('\n')[0]).toMatch(new RegExp(`^${at + 1}#[0-9a-z]+\\|${line}( edited)?$`));
        const edited = original.replace(line, `${line} edited`);
        expect(bytesOf(dir, 'f.txt').equals(Buffer.from(edited, 'utf8'))).toBe(true);
        ok(await toolset.callTool('copy_file', { source: '/f.txt', destination: '/g.txt' }));
        expect(bytesOf(dir, 'g.txt').equals(bytesOf(dir, 'f.txt'))).toBe(true);
        const hashed = ok<{ content: string }>(
          await toolset.callTool('read_file', { path: '/f.txt', offset: at + 1, limit: 1, hashes: true }),
        );
        expect(hashed.content).toMatch(new RegExp(`^${at + 1}#[0-9a-z]+\\|${line} edited$`));
        ok(await toolset.undo()); // the copy
        ok(await toolset.undo()); // the edit
        expect(fs.existsSync(path.join(dir, 'g.txt'))).toBe(false);
        expect(bytesOf(dir, 'f.txt').equals(before)).toBe(true);
        fs.rmSync(dir, { recursive: true, force: true });
      }),
      {
        numRuns: 8,
        // The ASCII shapes every run (a generated one is ASCII only one time in four).
        examples: [
          [{ lines: 22_000, crlf: false, bom: false, accent: false, finalNewline: true }, 21_999],
          [{ lines: 25_000, crlf: true, bom: false, accent: false, finalNewline: false }, 0],
        ],
      },
    );
  });

  it('is read as text without its bytes, and its bytes read again are the file', async () => {
    const text = contentOf({ lines: 25_000, crlf: false, bom: false, accent: false, finalNewline: true });
    const { dir } = project({ 'f.txt': text, 'g.txt': `é${text}` });
    const opts = (name: string) => ({ maxBytes: 1 << 30, displayPath: `/${name}` });
    const host = (name: string) => path.join(dir, name);
    const first = await readTextFile(host('f.txt'), fs.realpathSync(dir), opts('f.txt'));
    expect(first.data).toBeUndefined();
    expect(first.text === text).toBe(true);
    // Read again unchanged (kept as its text) and as bytes.
    const again = await readTextFile(host('f.txt'), fs.realpathSync(dir), opts('f.txt'));
    expect(again.text === text).toBe(true);
    const raw = await readFileBytes(host('f.txt'), fs.realpathSync(dir), opts('f.txt'));
    expect(raw.data.equals(bytesOf(dir, 'f.txt'))).toBe(true);
    // Changed on disk (same size): the kept text is not taken.
    fs.writeFileSync(host('f.txt'), text.replace('line 7 ', 'line 8 '));
    const changed = await readTextFile(host('f.txt'), fs.realpathSync(dir), opts('f.txt'));
    expect(changed.text === text.replace('line 7 ', 'line 8 ')).toBe(true);
    // Not ASCII: the bytes are kept with the text.
    const accented = await readTextFile(host('g.txt'), fs.realpathSync(dir), opts('g.txt'));
    expect(accented.data?.equals(bytesOf(dir, 'g.txt'))).toBe(true);
  });
});
