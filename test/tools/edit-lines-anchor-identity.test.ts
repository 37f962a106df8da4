// An anchor from any hashed read the model still holds names the line that read showed:
// whatever happened since (edit_file, edit_lines, writes from outside the toolset, with
// or without a change in line count), edit_lines either edits exactly that line or
// refuses and changes nothing. Generated sequences over a file of twin blocks, where a
// wrong turn lands on an identical line and would go unseen by content alone.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

interface Line {
  id: number;
  text: string;
}

type Step =
  | { kind: 'insert'; block: number; count: number }
  | { kind: 'outsideDelete'; block: number }
  | { kind: 'outsideReplace'; at: number }
  | { kind: 'edit'; read: 'first' | 'last'; at: number }
  | { kind: 'reread' };

const BLOCKS = 12;
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    block: fc.nat(BLOCKS - 1),
    // A shift by a whole block puts a twin exactly where the line read was.
    count: fc.constantFrom(1, 2, 5, 10),
  }),
  fc.record({ kind: fc.constant('outsideDelete' as const), block: fc.nat(BLOCKS - 1) }),
  fc.record({ kind: fc.constant('outsideReplace' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('edit' as const), read: fc.constantFrom('first', 'last'), at: fc.nat() }),
  fc.record({ kind: fc.constant('edit' as const), read: fc.constantFrom('first', 'last'), at: fc.nat() }),
  fc.record({ kind: fc.constant('reread' as const) }),
);

describe('edit_lines anchors keep naming the line read', () => {
  it('edits the line the read showed, or refuses with the file unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        async (markerLast, steps) => {
          let nextId = 0;
          const model: Line[] = [];
          for (let b = 0; b < BLOCKS; b++)
            // A block's one distinctive line heads it or ends it: twins then sit below or above it.
            for (const text of markerLast
              ? ['function f() {', '  return 1;', '}', '', `// m${b}`]
              : [`// m${b}`, 'function f() {', '  return 1;', '}', ''])
              model.push({ id: nextId++, text });
          const render = () => `${model.map((l) => l.text).join('\n')}\n`;
          const dir = tempDir({ 'f.txt': render() });
          const file = path.join(dir, 'f.txt');
          const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
          const read = async () => {
            const r = await ts.callTool('read_file', { path: '/f.txt', hashes: true });
            if (!r.ok) throw new Error(r.error.message);
            const anchors = (r.data as { content: string }).content
              .split('\n')
              .map((l) => l.slice(0, l.indexOf('|')));
            expect(anchors.length).toBe(model.length);
            return anchors.map((anchor, i) => ({ anchor, id: model[i]!.id }));
          };
          const first = await read();
          let last = first;
          let edits = 0;
          for (const s of steps) {
            if (s.kind === 'reread') last = await read();
            else if (s.kind === 'insert') {
              const at = model.findIndex((l) => l.text === `// m${s.block}`);
              if (at === -1) continue;
              const added = Array.from({ length: s.count }, () => ({
                id: nextId,
                text: `// added ${nextId++}`,
              }));
              const r = await ts.callTool('edit_file', {
                path: '/f.txt',
                old_string: `// m${s.block}\n`,
                new_string: `// m${s.block}\n${added.map((l) => l.text).join('\n')}\n`,
              });
              expect(r.ok).toBe(true);
              model.splice(at + 1, 0, ...added);
            } else if (s.kind === 'outsideDelete') {
              // The whole block: the lines after it move up by one block.
              const marker = model.findIndex((l) => l.text === `// m${s.block}`);
              if (marker === -1) continue;
              model.splice(markerLast ? Math.max(0, marker - 4) : marker, 5);
              fs.writeFileSync(file, render());
            } else if (s.kind === 'outsideReplace') {
              const at = s.at % model.length;
              model[at] = { id: nextId, text: `// outside ${nextId++}` };
              fs.writeFileSync(file, render());
            } else {
              const held = s.read === 'first' ? first : last;
              const { anchor, id: heldId } = held[s.at % held.length]!;
              // The toolset knows the latest read: a hash it shows too names its line there,
              // whatever the line number (a slipped number is followed, by design).
              const hash = (a: string) => a.slice(a.indexOf('#'));
              const id = last.find((a) => hash(a.anchor) === hash(anchor))?.id ?? heldId;
              const before = fs.readFileSync(file, 'utf8');
              const text = `// edited ${edits++}`;
              const r = await ts.callTool('edit_lines', {
                path: '/f.txt',
                operations: [{ op: 'replace_line', hash: anchor, content: text }],
                sanity: 'off',
              });
              const at = model.findIndex((l) => l.id === id);
              if (r.ok) {
                expect(at, `${anchor} applied, but the line read is gone`).not.toBe(-1);
                model[at] = { id: nextId++, text };
                expect(fs.readFileSync(file, 'utf8'), `${anchor} landed elsewhere`).toBe(render());
              } else {
                expect(r.error.code).toMatch(/^anchor_/);
                expect(fs.readFileSync(file, 'utf8')).toBe(before);
              }
            }
          }
        },
      ),
      {
        numRuns: 150,
        examples: [
          [
            false,
            [
              { kind: 'insert', block: 0, count: 5 },
              { kind: 'edit', read: 'first', at: 6 },
              { kind: 'edit', read: 'first', at: 12 },
            ],
          ],
        ],
      },
    );
  }, 120_000);
});
