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
  /** The line this one is a copy of (its first original), or its own id. */
  root?: number;
}

/**
 * Whether an edit meant for line `id` may land on `line`: that line, or, once it is
 * gone, a copy of it (the bytes cannot tell a copy and a replaced original from a move).
 */
function standsFor(line: Line, id: number, model: readonly Line[], roots: Map<number, number>): boolean {
  if (line.id === id) return true;
  const root = roots.get(id) ?? id;
  return !model.some((l) => l.id === id) && (line.root ?? line.id) === root;
}

type Step =
  | { kind: 'insert'; block: number; count: number }
  | { kind: 'outsideDelete'; block: number }
  | { kind: 'outsideReplace'; at: number }
  | { kind: 'copy'; at: number; above: boolean; viaTool: boolean }
  | { kind: 'edit'; read: 'first' | 'last' | 'result'; at: number; copied?: boolean }
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
  // A copy of any line (a unique one becomes a twin): an anchor read before it cannot tell the copies apart.
  fc.record({ kind: fc.constant('copy' as const), at: fc.nat(), above: fc.boolean(), viaTool: fc.boolean() }),
  fc.record({
    kind: fc.constant('edit' as const),
    read: fc.constantFrom('first', 'last', 'result'),
    at: fc.nat(),
    // The anchor of a line that has been copied since: where a guess would go wrong.
    copied: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('edit' as const), read: fc.constantFrom('first', 'last'), at: fc.nat() }),
  fc.record({ kind: fc.constant('reread' as const) }),
);

/** The anchors an edit_lines result diff gives (context and added lines), with the line each names now. */
function resultAnchors(diff: string, model: readonly Line[]): { anchor: string; id: number }[] {
  return [...diff.matchAll(/^[ +](\d+)(#[0-9a-f]+)\|/gm)].map((m) => ({
    anchor: `${m[1]}${m[2]}`,
    id: model[Number(m[1]) - 1]!.id,
  }));
}

/** Runs one generated sequence on a fresh file and checks every edit_lines against the model. */
async function runSequence(markerLast: boolean, steps: readonly Step[]): Promise<void> {
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
  // The last edit_lines result's anchors, while no read came after it.
  let result: { anchor: string; id: number }[] = [];
  let edits = 0;
  const copiedIds: number[] = [];
  const roots = new Map<number, number>();
  for (const s of steps) {
    if (s.kind === 'reread') {
      last = await read();
      result = [];
    } else if (s.kind === 'copy') {
      const at = s.at % model.length;
      const source = model[at]!;
      const copy = { id: nextId++, text: source.text, root: source.root ?? source.id };
      roots.set(copy.id, copy.root);
      copiedIds.push(model[at]!.id);
      model.splice(s.above ? at : at + 1, 0, copy);
      if (s.viaTool)
        expect((await ts.callTool('write_file', { path: '/f.txt', content: render() })).ok).toBe(true);
      else fs.writeFileSync(file, render());
    } else if (s.kind === 'insert') {
      const at = model.findIndex((l) => l.text === `// m${s.block}`);
      // A copied marker is no unique old_string: edit_file would (rightly) refuse it.
      if (at === -1 || model.filter((l) => l.text === `// m${s.block}`).length > 1) continue;
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
      const held = s.read === 'first' ? first : s.read === 'last' ? last : result;
      if (held.length === 0) continue;
      const copiedId = copiedIds[s.at % Math.max(1, copiedIds.length)];
      const { anchor, id: heldId } =
        (s.copied && held.find((a) => a.id === copiedId)) || held[s.at % held.length]!;
      // The toolset knows the latest read: a hash it shows too names its line there,
      // whatever the line number (a slipped number is followed, by design); an anchor
      // exactly as the last result gave it names the line it gave it for.
      const hash = (a: string) => a.slice(a.indexOf('#'));
      const id =
        result.find((a) => a.anchor === anchor)?.id ??
        last.find((a) => hash(a.anchor) === hash(anchor))?.id ??
        heldId;
      const before = fs.readFileSync(file, 'utf8');
      const text = `// edited ${edits++}`;
      const r = await ts.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: text }],
        sanity: 'off',
      });
      if (r.ok) {
        const at = fs.readFileSync(file, 'utf8').split('\n').indexOf(text);
        expect(at, `${anchor}: no line edited`).not.toBe(-1);
        expect(
          standsFor(model[at]!, id, model, roots),
          `${anchor} applied to line ${at + 1}, not the line read (or a copy, once it is gone)`,
        ).toBe(true);
        model[at] = { id: nextId++, text };
        expect(fs.readFileSync(file, 'utf8'), `${anchor} landed elsewhere`).toBe(render());
        result = resultAnchors((r.data as { diff: string }).diff, model);
      } else {
        expect(r.error.code).toMatch(/^anchor_/);
        expect(fs.readFileSync(file, 'utf8')).toBe(before);
      }
    }
  }
}

describe('edit_lines anchors keep naming the line read', () => {
  it('edits the line the read showed, or refuses with the file unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(step, { minLength: 1, maxLength: 8 }), runSequence),
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
          // A unique line copied above itself, a whole re-read, then the first read's anchor
          // (its own hash): the copy now sits at the number read.
          [
            false,
            [
              { kind: 'copy', at: 5, above: true, viaTool: false },
              { kind: 'reread' },
              { kind: 'edit', read: 'first', at: 5 },
            ],
          ],
          // A first-read position anchor of a twin, after a re-read and an edit_lines result:
          // a block shift puts another twin at that position, where the file shows the same anchor.
          [
            false,
            [
              { kind: 'outsideReplace', at: 56 },
              { kind: 'reread' },
              { kind: 'insert', block: 0, count: 5 },
              { kind: 'edit', read: 'first', at: 0 },
              { kind: 'edit', read: 'first', at: 57 },
            ],
          ],
          // Drawn by CI (seed 1487106771): a whole block deleted from outside, then a line of the
          // next block copied, then the deleted block's first line by its first-read anchor. The
          // longest alignment explains the copy by keeping the deleted line (4 lines removed, not
          // 5 removed and 1 added) and put the edit on the next block's twin; one a line shorter
          // gives that twin to its own block, so the line is now 'unsure' (forced-match.ts).
          [
            true,
            [
              { kind: 'outsideDelete', block: 1 },
              { kind: 'copy', at: 1945567036, above: false, viaTool: false },
              { kind: 'edit', read: 'first', at: 355026785 },
              { kind: 'insert', block: 0, count: 1 },
            ],
          ],
        ],
      },
    );
  }, 120_000);

  // Found when an unseeded run drew it: a twin copied above the line read, written from outside,
  // and a whole later block deleted. The longest alignment pairs the line with the copy (it deletes
  // four lines instead of inserting one and deleting five), while the original is still there.
  // From the bytes alone both histories are possible: an alignment one line shorter that places the
  // line elsewhere now makes it 'unsure' (forced-match.ts), refused.
  it('a twin copied above the line read, then a later block deleted elsewhere: refused, not put on the copy', () =>
    runSequence(false, [
      { kind: 'insert', block: 0, count: 5 },
      { kind: 'copy', at: 634635811, above: true, viaTool: false },
      { kind: 'outsideDelete', block: 11 },
      { kind: 'edit', read: 'first', at: 0, copied: true },
      { kind: 'reread' },
    ]));
});
