import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

// Promise 3 on files bigger than a page: B's chain of edit_lines fills the shared cache with
// derived hashes/anchors; fresh toolsets paging the result must show what a cold process shows.

const WORKER = path.join(import.meta.dirname, 'rt53-cold-worker.ts');

describe('rt53 big paged hashed reads after derived cache entries', () => {
  for (const variant of ['lf', 'crlf-bom', 'mixed-nofinal'] as const) {
    it(`20k-line file with twins (${variant}), 40 chained edits, every page equals a cold read`, async () => {
      const eolAt = (i: number) =>
        variant === 'lf' ? '\n' : variant === 'crlf-bom' ? '\r\n' : i % 7 === 0 ? '\r\n' : '\n';
      const pool = ['}', '', '  x = 1;', '  return x;', 'é', '😀'];
      let text = variant === 'crlf-bom' ? '\uFEFF' : '';
      for (let i = 0; i < 20_000; i++)
        text += (i % 5 === 0 ? `fn${i}() {` : pool[(i * 7) % pool.length]) + eolAt(i);
      if (variant === 'mixed-nofinal') text = text.replace(/\r?\n$/, '');
      const dir = tempDir({ 'f.txt': text });
      const sb = () => Sandbox.fromDirectory(dir, { mode: 'rw' });
      const a = new FileSystemToolset(sb());
      const b = new FileSystemToolset(sb());
      for (let off = 1; off <= 20_000; off += 2000)
        await a.callTool('read_file', { path: '/f.txt', hashes: true, offset: off });
      let page = String(
        ((await b.callTool('read_file', { path: '/f.txt', hashes: true, offset: 9_000, limit: 200 })) as any)
          .data.content,
      );
      const outcomes: string[] = [];
      for (let k = 0; k < 40; k++) {
        const ls = page.split('\n');
        const l = ls[(k * 37) % ls.length]!;
        const op = ['replace_line', 'insert_after', 'delete_line', 'insert_before'][k % 4]!;
        const e = await b.callTool('edit_lines', {
          path: '/f.txt',
          sanity: 'off',
          operations: [
            {
              op,
              hash: l.slice(0, l.indexOf('|')),
              ...(op === 'delete_line' ? {} : { content: k % 3 ? '}' : `new ${k}\n  x = 1;` }),
            },
          ],
        });
        outcomes.push(e.ok ? 'ok' : e.error.code);
        // next anchors: a page B reads of the new version (a hit of the derived cache entry)
        page = String(
          (
            (await b.callTool('read_file', {
              path: '/f.txt',
              hashes: true,
              offset: 9_000,
              limit: 200,
            })) as any
          ).data.content,
        );
      }
      expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThan(20);
      // fresh toolsets page the final version; the child process pages the same bytes cold
      const reads: { path: string; offset: number; limit: number }[] = [];
      const warm: string[] = [];
      const total = (
        (await new FileSystemToolset(sb()).callTool('read_file', { path: '/f.txt', limit: 1 })) as any
      ).data.total_lines as number;
      for (let off = 1; off <= total; off += 1500) {
        const c = new FileSystemToolset(sb());
        warm.push(
          String(
            (
              (await c.callTool('read_file', {
                path: '/f.txt',
                hashes: true,
                offset: off,
                limit: 1500,
              })) as any
            ).data.content,
          ),
        );
        reads.push({ path: '/f.txt', offset: off, limit: 1500 });
      }
      const jobFile = path.join(dir, 'job.json');
      fs.writeFileSync(jobFile, JSON.stringify({ dir, reads }));
      const out = JSON.parse(
        execFileSync(process.execPath, ['--import', 'tsx', WORKER, jobFile], {
          maxBuffer: 1 << 28,
        }).toString(),
      );
      const bad = out.reads
        .map((c: string, i: number) => (c === warm[i] ? null : i))
        .filter((x: number | null) => x !== null);
      expect(bad).toEqual([]);
    });
  }
});
