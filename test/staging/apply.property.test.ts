import fs from 'node:fs';
import path from 'node:path';
import { diffLines } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FileDecision, ReviewDecisions } from '../../src/staging/decisions.js';
import { applyHunks, computeHunks, revertHunks } from '../../src/staging/hunks.js';
import { snapshot, stagedProject } from './fixture.js';

const NAMES = ['a.txt', 'b.txt', 'c.txt', 'd/e.txt'];
const RUNS = 100;

const line = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '', '  x', 'omega');
const text = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
  .map(([lines, eol]) => (lines.length === 0 ? '' : lines.join('\n') + (eol ? '\n' : '')));
const name = fc.constantFrom(...NAMES);

type Op =
  | { kind: 'write'; path: string; content: string }
  | { kind: 'edit'; path: string; index: number; replacement: string }
  | { kind: 'delete'; path: string }
  | { kind: 'move' | 'copy'; from: string; to: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), path: name, content: text }),
  fc.record({
    kind: fc.constant('edit' as const),
    path: name,
    index: fc.nat(20),
    replacement: fc.constantFrom('ALPHA', 'zeta', 'x y'),
  }),
  fc.record({ kind: fc.constant('delete' as const), path: name }),
  fc.record({ kind: fc.constantFrom('move' as const, 'copy' as const), from: name, to: name }),
);

/** The model of what the staged files should be, kept independently of the overlay. */
function simulate(model: Map<string, string>, o: Op): Record<string, unknown> | undefined {
  const v = (p: string) => `/${p}`;
  switch (o.kind) {
    case 'write':
      model.set(o.path, o.content);
      return { tool: 'write_file', args: { path: v(o.path), content: o.content } };
    case 'edit': {
      const current = model.get(o.path);
      const lines = current?.split('\n').filter((l) => l.length >= 3);
      if (!current || !lines?.length) return undefined;
      const target = lines[o.index % lines.length]!;
      // Only unique, non-trivial lines: edit_file refuses ambiguous matches.
      if (current.split(target).length !== 2 || o.replacement.includes(target)) return undefined;
      model.set(o.path, current.replace(target, o.replacement));
      return { tool: 'edit_file', args: { path: v(o.path), old_string: target, new_string: o.replacement } };
    }
    case 'delete':
      if (!model.has(o.path)) return undefined;
      model.delete(o.path);
      return { tool: 'delete_file', args: { path: v(o.path) } };
    default: {
      if (!model.has(o.from) || o.from === o.to) return undefined;
      model.set(o.to, model.get(o.from)!);
      if (o.kind === 'move') model.delete(o.from);
      return { tool: `${o.kind}_file`, args: { source: v(o.from), destination: v(o.to), overwrite: true } };
    }
  }
}

describe('apply of a reviewed change set (property)', () => {
  it(`disk = base + exactly the accepted hunks (or the person's version) for every file, or nothing changed (${RUNS} cases)`, async () => {
    let applied = 0;
    let conflicts = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(name, text, { maxKeys: 4 }),
        fc.array(op, { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        fc.option(name, { freq: 4 }),
        async (initial, ops, choices, tamper) => {
          const { dir, toolset, staging } = stagedProject(initial);
          const original = snapshot(dir);
          const model = new Map(Object.entries(initial));
          for (const o of ops) {
            const call = simulate(model, o);
            if (!call) continue;
            const outcome = await toolset.callTool(call.tool as string, call.args);
            expect(outcome.ok, JSON.stringify({ call, outcome })).toBe(true);
          }
          // Reads see the staged state exactly.
          for (const n of NAMES) {
            const read = await toolset.callTool('read_many_files', { paths: [`/${n}`] });
            const file = read.ok ? (read.data as { files: { content?: string }[] }).files[0] : undefined;
            expect(file?.content, n).toBe(model.get(n));
          }
          expect(snapshot(dir)).toEqual(original);

          const set = staging.changeSet();
          let c = 0;
          const pick = (n: number) => choices[c++ % choices.length]! % n;
          const files: Record<string, FileDecision> = {};
          for (const f of set.files) {
            const kind = pick(4);
            if (kind === 0) files[f.path] = { action: 'accept' };
            else if (kind === 1) files[f.path] = { action: 'reject', note: 'no' };
            else if (kind === 2) files[f.path] = { action: 'edit', content: `person ${f.path}\n` };
            else
              files[f.path] = {
                action: 'hunks',
                hunks: Object.fromEntries(f.hunks.map((h) => [h.id, pick(2) ? 'accept' : 'reject'] as const)),
              };
          }
          const decisions: ReviewDecisions = { changeSetId: set.id, files };
          let tampered: string | undefined;
          if (tamper && set.files.some((f) => f.path === `/${tamper}` || f.movedFrom === `/${tamper}`)) {
            fs.mkdirSync(path.dirname(path.join(dir, tamper)), { recursive: true });
            fs.writeFileSync(path.join(dir, tamper), 'tampered\n');
            tampered = `/${tamper}`;
          }
          const before = snapshot(dir);
          const result = await staging.apply(decisions);
          const after = snapshot(dir);
          if (!result.ok) {
            conflicts++;
            expect(tampered).toBeDefined();
            expect(result.error.details).toEqual({ path: tampered });
            expect(after).toEqual(before);
            return;
          }
          applied++;
          // The expected disk, computed from the model and the decisions only (rejected files keep what is on disk).
          const expected: Record<string, string> = { ...before };
          const written = new Set<string>();
          for (const f of set.files) {
            const d = files[f.path]!;
            const staged = model.get(f.path.slice(1));
            let result: string | undefined;
            if (d.action === 'reject') continue;
            if (d.action === 'accept') result = staged;
            else if (d.action === 'edit') result = d.content;
            else {
              const rejected = new Set(f.hunks.filter((h) => d.hunks[h.id] === 'reject').map((h) => h.id));
              if (rejected.size === f.hunks.length || f.binary) continue;
              result = rejected.size === 0 ? staged : revertHunks(staged ?? '', f.hunks, rejected);
            }
            written.add(f.path);
            if (f.movedFrom) written.add(f.movedFrom);
            if (result === undefined) delete expected[f.path.slice(1)];
            else expected[f.path.slice(1)] = result;
            if (f.movedFrom) delete expected[f.movedFrom.slice(1)];
          }
          expect(after).toEqual(expected);
          // A file that changed on disk is never written over.
          if (tampered) expect(written.has(tampered)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
    expect(applied + conflicts).toBe(RUNS);
    expect(applied).toBeGreaterThan(RUNS / 2);
  }, 120_000);
});

describe('hunks (property)', () => {
  it('minimal hunks; base + accepted hunks = staged − rejected hunks, for any texts and any choice (300 cases)', () => {
    fc.assert(
      fc.property(
        text,
        text,
        fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
        (base, staged, bits) => {
          const hunks = computeHunks('/f', base, staged);
          const accepted = new Set(hunks.filter((_, i) => bits[i % bits.length]).map((h) => h.id));
          const rejected = new Set(hunks.filter((h) => !accepted.has(h.id)).map((h) => h.id));
          const forward = applyHunks(base, hunks, accepted);
          expect(forward).toBe(revertHunks(staged, hunks, rejected));
          expect(applyHunks(base, hunks, new Set(hunks.map((h) => h.id)))).toBe(staged);
          expect(applyHunks(base, hunks, new Set())).toBe(base);
          // Minimal, as the reference diff: the same number of changed lines as jsdiff's diffLines.
          const reference = diffLines(base, staged).reduce(
            (n, c) => n + (c.added || c.removed ? c.count : 0),
            0,
          );
          expect(hunks.reduce((n, h) => n + h.removed.length + h.added.length, 0)).toBe(reference);
          // Hunks never touch: between two hunks at least one line is kept.
          for (let i = 1; i < hunks.length; i++)
            expect(hunks[i]!.oldIndex).toBeGreaterThan(hunks[i - 1]!.oldIndex + hunks[i - 1]!.removed.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
