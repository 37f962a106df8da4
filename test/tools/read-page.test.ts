import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hex, lineHash32 } from '../../src/edit/line-hash.js';
import { readAnchors } from '../../src/edit/read-anchors.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { toModelText } from '../../src/tools/text-stats.js';
import { tempDir } from '../helpers/temp-project.js';
import { textArbitrary } from '../helpers/text-arbitrary.js';

/** read_file's paging as it was first written (split into lines, pick, join): the reference. */
function referencePage(raw: string, offset: number, limit: number, maxChars: number, hashes: boolean) {
  const text = toModelText(raw);
  const lines = text.length === 0 ? [] : text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  const total = lines.length;
  if (total > 0 && offset > total) return { error: 'invalid_argument' };
  const picked: string[] = [];
  let chars = 0;
  let cutLine = false;
  for (let i = offset - 1; i < total && picked.length < limit; i++) {
    let line = lines[i]!;
    if (chars + line.length + 1 > maxChars) {
      if (picked.length > 0) break;
      line = line.slice(0, maxChars);
      cutLine = true;
    }
    picked.push(line);
    chars += line.length + 1;
  }
  const endLine = offset + picked.length - 1;
  const shown = readAnchors(Uint32Array.from(lines, (l) => lineHash32(l)));
  return {
    // Every line shows the anchor a read of the whole file gives it, a cut line too (the
    // part shown may equal another line: its own hash could name that line).
    content: !hashes
      ? picked.join('\n')
      : picked.map((l, k) => `${offset + k}#${hex(shown[offset - 1 + k]!, 6)}|${l}`).join('\n'),
    start_line: picked.length ? offset : 0,
    end_line: picked.length ? endLine : 0,
    total_lines: total,
    truncated: endLine < total || cutLine,
    next_offset: endLine < total ? endLine + 1 : null,
  };
}

const line = fc.constantFrom('', 'a', '  x = 1;', 'long line of text here', 'é', '\t}', 'tail  ');
const fileArb = textArbitrary(line, fc.constantFrom('\n', '\r\n'), 12);

describe('read_file paging', () => {
  it('returns the same pages as splitting the file into lines', async () => {
    const dir = tempDir({});
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        async (raw, offset, limit, maxChars, hashes) => {
          fs.writeFileSync(path.join(dir, 'f.txt'), raw);
          const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir), {
            limits: { readMaxChars: maxChars, readMaxLines: 10 },
          });
          const outcome = await toolset.callTool('read_file', { path: '/f.txt', offset, limit, hashes });
          const expected = referencePage(raw, offset, Math.min(limit, 10), maxChars, hashes);
          if ('error' in expected) {
            expect(outcome.ok ? 'ok' : outcome.error.code).toBe(expected.error);
            return;
          }
          expect(outcome.ok).toBe(true);
          if (outcome.ok) expect(outcome.data).toMatchObject(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('read_file hashed paging through one toolset', () => {
  it('gives every page the anchors of a whole read, the first read (from bytes) and later ones (cached) alike', async () => {
    const cases = fc.sample(fc.tuple(fileArb, fc.integer({ min: 1, max: 5 })), { numRuns: 200, seed: 26 });
    const dir = tempDir(Object.fromEntries(cases.map(([raw], i) => [`f${i}.txt`, raw])));
    // Older than a coarse clock tick: the version cache keeps them, so later pages come from it.
    await new Promise((resolve) => setTimeout(resolve, 150));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir));
    for (const [i, [raw, limit]] of cases.entries()) {
      for (let offset = 1; ; offset += limit) {
        const outcome = await toolset.callTool('read_file', {
          path: `/f${i}.txt`,
          offset,
          limit,
          hashes: true,
        });
        const expected = referencePage(raw, offset, limit, 50_000, true);
        if ('error' in expected) {
          expect(outcome.ok ? 'ok' : outcome.error.code).toBe(expected.error);
          break;
        }
        expect(outcome.ok && outcome.data).toMatchObject(expected);
        if (expected.next_offset === null) break;
      }
    }
  });
});
