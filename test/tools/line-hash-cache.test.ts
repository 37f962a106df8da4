import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderHashedText } from '../../src/edit/hashed-render.js';
import { LineTable } from '../../src/edit/line-table.js';
import { readAnchors } from '../../src/edit/read-anchors.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { toModelText } from '../../src/tools/text-stats.js';
import { ok, project } from './fixture.js';

// Line hashes are kept per content SHA-256 across calls (read_file of a whole file,
// edit_lines before and after an edit), in one cache for every toolset of the process.
// Whatever comes from that cache must be exactly what is computed without it.

/** A whole hashed read of `text`, computed from nothing any cache holds. */
function coldRead(text: string): string {
  const model = toModelText(text);
  const body = model.endsWith('\n') ? model.slice(0, -1) : model;
  return renderHashedText(body, 1, { known: readAnchors(new LineTable(model).hashes()) }).content;
}

/** Lines [offset, offset + limit) of a whole hashed read: what a page of it shows. */
const pageOf = (whole: string, offset: number, limit: number) =>
  whole
    .split('\n')
    .slice(offset - 1, offset - 1 + limit)
    .join('\n');

const FILE = '\uFEFFfunction a() {\r\n  return 1;  \r\n}\r\n\r\nfunction b() {\r\n  return 2;\r\n}\r\n';

async function hashedRead(toolset: FileSystemToolset, args: Record<string, unknown> = {}) {
  return String(ok(await toolset.callTool('read_file', { path: '/f.js', hashes: true, ...args })).content);
}

describe('line hashes cached by content', () => {
  it('give the same anchors as a fresh toolset, after reads and chained edits', async () => {
    const { dir, toolset } = project({ 'f.js': FILE });
    const fresh = () => new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const anchors = (await hashedRead(toolset)).split('\n').map((l) => l.slice(0, l.indexOf('|')));
    const first = ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'replace_line', hash: anchors[1], content: '  return 10;' }],
      }),
    );
    // The next edit anchors on a fresh anchor from the returned diff: its hashes come from the cache.
    const added = String(first.diff)
      .split('\n')
      .find((l) => l.startsWith('+'))!;
    ok(
      await toolset.callTool('edit_lines', {
        path: '/f.js',
        operations: [{ op: 'insert_after', hash: added.slice(1, added.indexOf('|')), content: '  // ten' }],
      }),
    );
    const now = fs.readFileSync(path.join(dir, 'f.js'), 'utf8');
    expect(await hashedRead(toolset)).toBe(coldRead(now));
    expect(await hashedRead(fresh())).toBe(coldRead(now));
    expect(await hashedRead(toolset, { offset: 3, limit: 3 })).toBe(pageOf(coldRead(now), 3, 3));
    expect(await hashedRead(fresh(), { offset: 3, limit: 3 })).toBe(pageOf(coldRead(now), 3, 3));
  });

  it('the cold oracle is what a toolset shows of content no toolset has seen', async () => {
    const text = `${FILE}// ${process.hrtime.bigint()}\n`;
    const { toolset } = project({ 'f.js': text });
    expect(await hashedRead(toolset)).toBe(coldRead(text));
  });

  it('toolsets sharing the cache each show what a cold read shows, whichever computed it (generated files and edits)', async () => {
    // Few distinct lines: twins everywhere, so context and position anchors are in play.
    const line = fc.constantFrom('}', '', '  x = 1;', '  return x;', 'if (a) {', '\t}');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.constantFrom('\n', '\r\n'),
        async (lines, pick, eol) => {
          // A line of its own: this content is new to the process (nothing cached yet).
          const text = [`// ${process.hrtime.bigint()}`, ...lines].join(eol) + eol;
          const { dir, toolset: a } = project({ 'f.js': text });
          const fresh = () => new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
          const b = fresh();
          const shown = await hashedRead(a);
          expect(shown).toBe(coldRead(text));
          expect(await hashedRead(b)).toBe(shown);
          // a edits: the new version's hashes and anchors are derived from the edit and cached.
          const anchors = shown.split('\n').map((l) => l.slice(0, l.indexOf('|')));
          const at = 1 + (pick % (anchors.length - 1));
          ok(
            await a.callTool('edit_lines', {
              path: '/f.js',
              sanity: 'warn',
              operations: [{ op: 'replace_line', hash: anchors[at], content: `  changed(${pick});` }],
            }),
          );
          const now = fs.readFileSync(path.join(dir, 'f.js'), 'utf8');
          expect(await hashedRead(fresh())).toBe(coldRead(now));
          expect(await hashedRead(b)).toBe(coldRead(now));
          const offset = 1 + (pick % anchors.length);
          expect(await hashedRead(fresh(), { offset, limit: 5 })).toBe(pageOf(coldRead(now), offset, 5));
        },
      ),
      { numRuns: 60 },
    );
  });
});
