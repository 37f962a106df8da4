import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { ReadVersionCache } from '../../src/tools/read-versions.js';
import type { ToolContext } from '../../src/tools/types.js';
import { tempDir } from '../helpers/temp-project.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ctx = { limits: { maxFileBytes: 1 << 20 } } as unknown as ToolContext;

/** Same byte length, different content: one ASCII character changed. */
const mutate = (text: string, at: number) => {
  const i = at % text.length;
  return `${text.slice(0, i)}${text[i] === 'x' ? 'y' : 'x'}${text.slice(i + 1)}`;
};

describe('read_file version cache', () => {
  it('serves an unchanged file from the cache (one version object, without the bytes of the read that made it) and re-reads a changed one', async () => {
    const dir = tempDir({ 'a.txt': 'one\ntwo\n' });
    const sandbox = Sandbox.fromDirectory(dir);
    const cache = new ReadVersionCache();
    await sleep(150); // older than a coarse clock tick: safe to keep
    const first = await cache.load(ctx, sandbox.resolve('/a.txt', 'read'));
    const again = await cache.load(ctx, sandbox.resolve('/a.txt', 'read'));
    // The read that made the version had the file's bytes; the cache does not keep them.
    expect(first.modelBytes?.toString('latin1')).toBe('one\ntwo\n');
    expect(again.modelBytes).toBeUndefined();
    expect({ ...again, lineStarts: undefined }).toEqual({
      ...first,
      modelBytes: undefined,
      lineStarts: undefined,
    });
    expect(again.lineStarts).toBe(first.lineStarts); // one line table, built once
    expect(await cache.load(ctx, sandbox.resolve('/a.txt', 'read'))).toBe(again);
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    const changed = await cache.load(ctx, sandbox.resolve('/a.txt', 'read'));
    expect(changed.text).toBe('one\ntwo\nthree\n');
    expect(changed.total).toBe(3);
  });

  it('never serves a stale page: same-size rewrites with the mtime put back, also right after a read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[a-w ]{0,30}$/), { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.nat(),
        async (lines, at1, at2) => {
          const original = `${lines.join('\n')}\n`;
          const dir = tempDir({ 'f.txt': original });
          const file = path.join(dir, 'f.txt');
          // A whole second: put back exactly (a Date would lose the nanoseconds).
          const atime = 1_700_000_000;
          const mtime = 1_700_000_000;
          fs.utimesSync(file, atime, mtime);
          const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir), { limits: { readMaxLines: 10 } });
          const read = async (offset: number) => {
            const out = await toolset.callTool('read_file', { path: '/f.txt', offset, hashes: true });
            if (!out.ok) throw new Error(out.error.message);
            return out.data as { content: string; sha256: string };
          };
          const expectPage = async (text: string, offset: number) => {
            const want = text.split('\n').slice(offset - 1, offset + 9);
            const page = await read(offset);
            expect(page.content.split('\n').map((l) => l.slice(l.indexOf('|') + 1))).toEqual(
              want.slice(0, page.content.split('\n').length),
            );
          };
          await sleep(110);
          await expectPage(original, 1);
          // Rewritten in place, same size, mtime restored: only ctime tells.
          const second = mutate(original, at1);
          fs.writeFileSync(file, second);
          fs.utimesSync(file, atime, mtime);
          await expectPage(second, 1);
          // And again within the same clock tick as the read that just happened.
          const third = mutate(second, at2);
          fs.writeFileSync(file, third);
          fs.utimesSync(file, atime, mtime);
          await expectPage(third, 1);
          // A changed character may have been a newline: page through the lines the file has now.
          const thirdLines = third.endsWith('\n') ? third.split('\n').length - 1 : third.split('\n').length;
          for (let offset = 11; offset <= thirdLines; offset += 10) await expectPage(third, offset);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('serves a kept version only while the name still leads to that unchanged file', async () => {
    const outside = tempDir({ 'f.txt': 'same\n', 'secret.txt': 'secret\n' });
    const dir = tempDir({});
    fs.mkdirSync(path.join(dir, 'd'));
    fs.writeFileSync(path.join(dir, 'd', 'f.txt'), 'same\n');
    fs.writeFileSync(path.join(dir, 'g.txt'), 'kept\n');
    await sleep(150); // older than a coarse clock tick: kept
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir));
    const read = (p: string) => toolset.callTool('read_file', { path: p, hashes: true });
    for (const p of ['/d/f.txt', '/g.txt']) {
      expect((await read(p)).ok).toBe(true);
      expect((await read(p)).ok).toBe(true); // served from the cache
    }
    // Another file renamed over the name, same size and mtime: its own content.
    fs.writeFileSync(path.join(dir, 'h.txt'), 'KEPT\n');
    const { mtime } = fs.statSync(path.join(dir, 'g.txt'));
    fs.utimesSync(path.join(dir, 'h.txt'), mtime, mtime);
    fs.renameSync(path.join(dir, 'h.txt'), path.join(dir, 'g.txt'));
    const renamed = await read('/g.txt');
    expect(renamed.ok && (renamed.data as { content: string }).content).toMatch(/\|KEPT$/);
    // The directory swapped for a link out of the sandbox to a file of the same content: refused.
    fs.renameSync(path.join(dir, 'd'), path.join(dir, 'd-old'));
    fs.symlinkSync(outside, path.join(dir, 'd'));
    const swapped = await read('/d/f.txt');
    expect(swapped.ok ? 'ok' : swapped.error.code).toBe('path_not_in_sandbox');
    // The file swapped for a link to a secret: never the kept text, never the secret.
    fs.rmSync(path.join(dir, 'g.txt'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'g.txt'));
    const linked = await read('/g.txt');
    expect(linked.ok).toBe(false);
    // Removed: not_found, not the kept version.
    fs.rmSync(path.join(dir, 'g.txt'));
    const gone = await read('/g.txt');
    expect(gone.ok ? 'ok' : gone.error.code).toBe('not_found');
  });
});
