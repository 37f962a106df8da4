import fs from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { expect } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import type { ApprovalCallback } from '../../src/contract/approval-types.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import type { ToolOutcome } from '../../src/contract/tool-outcome.js';
import { project } from '../tools/fixture.js';

/**
 * The file moves of the binding property: while a call waits for its approval
 * (inside the callback in blocking mode, between the decision and the execution
 * in native mode) a file or a parent directory is swapped for a link or for
 * another entry with equal bytes, a link is re-pointed or left dangling; between
 * calls links are re-pointed and files made equal. After every execution the
 * tree is either unchanged, or changed only in the approved FILE (the entry the
 * name led to when the person approved, still that same file), as approved.
 */

const LINES = ['alpha', 'beta', 'gamma', 'delta'];
const NAMES = ['/a.txt', '/l.txt', '/d/f.txt', '/d/new.txt', '/dangling.txt', '/dl/f.txt'] as const;
const MOVES = [
  'none',
  'file-to-link',
  'file-to-copy',
  'dir-to-link',
  'dir-to-dir',
  'repoint',
  'dangle',
] as const;
type Move = (typeof MOVES)[number];

export const moveAction = fc.oneof(
  fc.record({
    kind: fc.constantFrom('write_file' as const, 'edit_file' as const, 'delete_file' as const),
    name: fc.constantFrom(...NAMES),
    native: fc.boolean(),
    move: fc.constantFrom(...MOVES, 'none', 'none'),
    line: fc.nat(8),
  }),
  fc.record({
    kind: fc.constant('between' as const),
    move: fc.constantFrom('repoint', 'dangle', 'equalize'),
  }),
);
export type MoveAction = typeof moveAction extends fc.Arbitrary<infer A> ? A : never;

export const moveStats = { runs: 0, executions: 0, applied: 0, refused: 0 };

type Tree = Map<string, string>;

/** Every entry under `dir` without following links: file → content, link → "link:" + its text. */
function snapshot(dir: string, rel = '', into: Tree = new Map()): Tree {
  for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    const full = path.join(dir, r);
    const st = fs.lstatSync(full);
    if (st.isSymbolicLink()) into.set(r, `link:${fs.readlinkSync(full)}`);
    else if (st.isDirectory()) snapshot(dir, r, into.set(r, 'dir'));
    else into.set(r, fs.readFileSync(full, 'utf8'));
  }
  return into;
}

/** Where a name leads now (real path relative to the root) and the identity of what is there. */
function locate(root: string, name: string, kind: MoveAction['kind']) {
  const full = path.join(root, name);
  let parent: string;
  try {
    parent = fs.realpathSync(path.dirname(full));
  } catch {
    return undefined;
  }
  let entry = path.join(parent, path.basename(full));
  const st = fs.lstatSync(entry, { throwIfNoEntry: false });
  // delete_file acts on a link itself; the other tools follow it.
  if (st?.isSymbolicLink() && kind !== 'delete_file') {
    try {
      entry = fs.realpathSync(entry);
    } catch {
      // Dangling: where it would be created (its directory's real path, itself maybe through links).
      const t = path.resolve(parent, fs.readlinkSync(entry));
      let dirOf = path.dirname(t);
      try {
        dirOf = fs.realpathSync(dirOf);
      } catch {
        // a missing directory would be created as named
      }
      entry = path.join(dirOf, path.basename(t));
    }
  }
  const at = fs.lstatSync(entry, { throwIfNoEntry: false });
  const dirAt = fs.statSync(path.dirname(entry), { throwIfNoEntry: false });
  return {
    rel: path.relative(root, entry),
    id: `${at ? `${at.ino}` : 'missing'}@${dirAt?.ino ?? '-'}`,
  };
}

/** The swaps applied to the tree (paths relative to root; each keeps the bytes of what it replaces). */
function applyMove(root: string, move: Move | 'equalize', target: string | undefined): void {
  const p = (r: string) => path.join(root, r);
  const tryDo = (f: () => void) => {
    try {
      f();
    } catch {
      // A move that does not apply to this tree (e.g. the file is gone) is simply not made.
    }
  };
  const relink = (to: string) => () => {
    fs.rmSync(p('l.txt'));
    fs.symlinkSync(to, p('l.txt'));
  };
  if (move === 'repoint') tryDo(relink('b.txt'));
  if (move === 'dangle') tryDo(relink('gone.txt'));
  if (move === 'equalize') tryDo(() => fs.copyFileSync(p('a.txt'), p('b.txt')));
  if (move === 'dir-to-link')
    tryDo(() => {
      fs.renameSync(p('d'), p(`d-${Date.now()}`));
      fs.symlinkSync('e', p('d'));
    });
  if (move === 'dir-to-dir')
    tryDo(() => {
      fs.renameSync(p('d'), p(`d-${Date.now()}`));
      fs.cpSync(p('e'), p('d'), { recursive: true });
    });
  if (!target || !fs.lstatSync(p(target), { throwIfNoEntry: false })?.isFile()) return;
  const twin = `${target}.twin`;
  if (move === 'file-to-link')
    tryDo(() => {
      fs.copyFileSync(p(target), p(twin));
      fs.rmSync(p(target));
      fs.symlinkSync(path.basename(twin), p(target));
    });
  if (move === 'file-to-copy')
    tryDo(() => {
      fs.copyFileSync(p(target), p(twin));
      fs.renameSync(p(twin), p(target));
    });
}

function argsFor(root: string, a: Extract<MoveAction, { name: string }>) {
  const name = a.name;
  if (a.kind === 'write_file') return { path: name, content: `written ${a.line}\n` };
  if (a.kind === 'delete_file') return { path: name };
  let text = '';
  try {
    text = fs.readFileSync(path.join(root, name), 'utf8');
  } catch {
    // missing: the call is refused before anyone is asked
  }
  const lines = text.split('\n').filter(Boolean);
  return { path: name, old_string: lines[a.line % Math.max(1, lines.length)] ?? 'x', new_string: 'NEW' };
}

export async function playMoves(actions: MoveAction[], equal: boolean): Promise<void> {
  const body = `${LINES.join('\n')}\n`;
  const { dir, toolset } = project({
    'a.txt': body,
    'b.txt': equal ? body : `${body}more\n`,
    'd/f.txt': body,
    'e/f.txt': body,
    'real/f.txt': body,
  });
  fs.symlinkSync('a.txt', path.join(dir, 'l.txt'));
  fs.symlinkSync('d/g.txt', path.join(dir, 'dangling.txt'));
  fs.symlinkSync('real', path.join(dir, 'dl'));
  let callNo = 0;
  for (const a of actions) {
    if (a.kind === 'between') {
      applyMove(dir, a.move, undefined);
      continue;
    }
    const args = argsFor(dir, a);
    let shown: { payload: ApprovalPayload; at: ReturnType<typeof locate>; state?: string } | undefined;
    const meddle = () => applyMove(dir, a.move, shown?.at?.rel);
    const approve: ApprovalCallback = (r) => {
      const at = locate(dir, a.name, a.kind);
      const state = at && fs.existsSync(path.join(dir, at.rel)) ? snapshot(dir).get(at.rel) : undefined;
      shown = { payload: structuredClone(r.payload), at, ...(state !== undefined ? { state } : {}) };
      if (!a.native) meddle();
      return { approved: true };
    };
    let outcome: ToolOutcome;
    let before: Tree;
    if (a.native) {
      const id = `m${++callNo}`;
      const decided = await decidePending(toolset, approve, {
        toolName: a.kind,
        toolCallId: id,
        input: args,
      });
      if (!decided.approved) continue;
      meddle();
      before = snapshot(dir);
      const now = locate(dir, a.name, a.kind);
      outcome = await executeApproved(toolset, a.kind, args, id);
      check(dir, a, outcome, before, shown, now);
    } else {
      let now: ReturnType<typeof locate>;
      let snap: Tree | undefined;
      const gated = new ApprovalToolset(toolset, {
        approve: async (r) => {
          const d = await approve(r);
          snap = snapshot(dir);
          now = locate(dir, a.name, a.kind);
          return d;
        },
      });
      const started = snapshot(dir);
      outcome = await gated.callTool(a.kind, args);
      before = snap ?? started;
      check(dir, a, outcome, before, shown, now!);
    }
  }
}

function check(
  dir: string,
  a: Extract<MoveAction, { name: string }>,
  outcome: ToolOutcome,
  before: Tree,
  shown: { payload: ApprovalPayload; at: ReturnType<typeof locate>; state?: string } | undefined,
  now: ReturnType<typeof locate>,
): void {
  moveStats.executions++;
  const after = snapshot(dir);
  if (!outcome.ok) {
    moveStats.refused++;
    expect([...after]).toEqual([...before]);
    return;
  }
  moveStats.applied++;
  // It ran: it was shown, and the name still led to the very file the person approved.
  expect(shown?.at).toBeDefined();
  expect(now).toEqual(shown!.at);
  const rel = shown!.at!.rel;
  const expected = new Map(before);
  const p = shown!.payload;
  if (a.kind === 'delete_file') expected.delete(rel);
  else if (p.type === 'write') expected.set(rel, p.content);
  else
    expected.set(rel, applyPatch(shown!.state ?? '', (p as { unifiedDiff: string }).unifiedDiff) as string);
  // Parent directories a create made are the only other change allowed.
  for (const [k, v] of after) if (v === 'dir' && !expected.has(k)) expected.set(k, 'dir');
  expect([...after].sort()).toEqual([...expected].sort());
}
