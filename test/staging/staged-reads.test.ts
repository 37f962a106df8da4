import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAll } from '../../src/staging/decisions.js';
import { stagedProject } from './fixture.js';

/**
 * A staged file's read version is kept by its content's SHA-256: every read shows
 * what is staged now (or on disk once nothing is), however writes, reads, pages,
 * hashed reads and an apply are interleaved.
 */
const content = fc.oneof(
  fc.constantFrom('', 'a\n', 'a\nb', 'x\r\ny\r\n', '\uFEFFbom\n', 'é\n😀\n'),
  fc.array(fc.constantFrom('}', '', 'line', 'é'), { maxLength: 12 }).map((l) => l.join('\n')),
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), text: content }),
  fc.record({
    kind: fc.constant('read' as const),
    hashes: fc.boolean(),
    offset: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('apply' as const) }),
);

const modelLines = (text: string) => {
  const model = (text.startsWith('\uFEFF') ? text.slice(1) : text).replaceAll('\r\n', '\n');
  const body = model.endsWith('\n') ? model.slice(0, -1) : model;
  return model === '' ? [] : body.split('\n');
};

describe('staged reads', () => {
  it('always show the content staged now, or on disk after an apply (generated sequences)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const { dir, toolset, staging } = stagedProject({ 'f.txt': 'start\n' });
        let expected = 'start\n';
        for (const s of steps) {
          if (s.kind === 'write') {
            const r = await toolset.callTool('write_file', { path: '/f.txt', content: s.text });
            expect(r.ok).toBe(true);
            expected = s.text;
          } else if (s.kind === 'apply') {
            const set = staging.changeSet();
            if (set.files.length > 0) await staging.apply(decideAll(set, 'accept'));
            expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe(expected);
          } else {
            const r = (await toolset.callTool('read_file', {
              path: '/f.txt',
              offset: s.offset,
              ...(s.hashes ? { hashes: true } : {}),
            })) as {
              ok: boolean;
              data?: { content: string; total_lines: number; start_line: number; end_line: number };
            };
            const lines = modelLines(expected);
            if (lines.length > 0 && s.offset > lines.length) {
              expect(r.ok).toBe(false);
              continue;
            }
            expect(r.ok).toBe(true);
            // A page of one empty line is '' as a page of none is: the line numbers tell them apart.
            const shown = r.data!.end_line === 0 ? [] : r.data!.content.split('\n');
            const texts = s.hashes ? shown.map((l) => l.slice(l.indexOf('|') + 1)) : shown;
            expect(texts).toEqual(lines.slice(s.offset - 1));
            expect(r.data!.total_lines).toBe(lines.length);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
