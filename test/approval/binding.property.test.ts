import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import type { ApprovalCallback } from '../../src/contract/approval-types.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import type { ToolOutcome } from '../../src/contract/tool-outcome.js';
import { project } from '../tools/fixture.js';
import { moveAction, moveStats, playMoves } from './binding-moves.js';

/**
 * The binding's promise, checked over random runs: after each execution the
 * bytes on disk are the approved payload's change applied to the approved state
 * (for a write: exactly the approved content), or the call failed and nothing
 * changed. Runs mix blocking and native mode, approvals and denials, hashed reads
 * of the file under other spellings, changes from outside during the prompt,
 * mutating callbacks, arguments changed between approval and execution, and
 * denied calls executed as if approved (swapped answers).
 */

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'eps', '}', '', 'zeta'];
const SPELLINGS = ['/a.txt', 'a.txt', '/./a.txt', '/x/../a.txt'];
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const interference = fc.constantFrom(
  'none',
  'none',
  'outside',
  'reread',
  'mutate',
  'tamper',
  'swap',
  'same-read',
);
const action = fc.oneof(
  fc.record({
    kind: fc.constant('edit_file' as const),
    native: fc.boolean(),
    line: fc.nat(20),
    text: fc.constantFrom(...WORDS, 'NEW', 'other'),
    approve: fc.boolean(),
    meddle: interference,
  }),
  fc.record({
    kind: fc.constant('edit_lines' as const),
    native: fc.boolean(),
    line: fc.nat(20),
    text: fc.constantFrom('NEW', 'LINE', ''),
    approve: fc.boolean(),
    meddle: interference,
    /** The file changes from outside after the hashed read: the approval follows the anchors through that read. */
    drift: fc.constantFrom('none', 'prepend', 'swap-first'),
  }),
  fc.record({
    kind: fc.constant('write_file' as const),
    native: fc.boolean(),
    line: fc.nat(20),
    text: fc.constantFrom('written\n', 'alpha\nbeta\n', ''),
    approve: fc.boolean(),
    meddle: interference,
  }),
  fc.record({ kind: fc.constant('read' as const), spelling: fc.constantFrom(...SPELLINGS) }),
  fc.record({ kind: fc.constant('outside' as const), text: fc.constantFrom(...WORDS) }),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;
type ToolAction = Extract<Action, { meddle: unknown }>;

let runs = 0;
let executions = 0;
let applied = 0;

afterAll(() => {
  console.log(
    `binding property: ${runs} runs, ${executions} executions (${applied} applied, ${executions - applied} refused or denied), checked`,
  );
  const m = moveStats;
  console.log(
    `binding property (file moves): ${m.runs} runs, ${m.executions} executions (${m.applied} applied, ${m.refused} refused), checked`,
  );
});

async function play(initial: string[], actions: Action[]) {
  const { dir, toolset } = project({ 'a.txt': `${initial.join('\n')}\n` });
  const file = path.join(dir, 'a.txt');
  const disk = () => fs.readFileSync(file, 'utf8');
  let callNo = 0;

  /** Builds the call for an action against the file as it is now (edit_lines reads hashes first). */
  async function argsFor(a: ToolAction): Promise<Record<string, unknown>> {
    const lines = disk().split('\n');
    const i = a.line % Math.max(1, lines.length - 1);
    if (a.kind === 'write_file') return { path: '/a.txt', content: a.text };
    if (a.kind === 'edit_file') return { path: '/a.txt', old_string: lines[i] ?? '', new_string: a.text };
    const read = await toolset.callTool('read_file', { path: '/a.txt', hashes: true });
    const hashed = read.ok ? String((read.data as { content: string }).content).split('\n') : [];
    const anchor = hashed[i]?.slice(0, hashed[i]!.indexOf('|')) ?? '1#000000';
    if (a.drift === 'prepend') fs.writeFileSync(file, `gamma\n${disk()}`);
    if (a.drift === 'swap-first') fs.writeFileSync(file, disk().replace(/^[^\n]*\n/, 'zeta\nalpha\n'));
    return { path: '/a.txt', operations: [{ op: 'replace_line', hash: anchor, content: a.text }] };
  }

  /** What happens between the approval and the execution. */
  function meddleAfterApproval(a: ToolAction) {
    if (a.meddle === 'outside') fs.appendFileSync(file, 'from outside\n');
    if (a.meddle === 'reread') {
      fs.writeFileSync(file, `moved\n${disk()}`);
      return toolset.callTool('read_file', { path: SPELLINGS[a.line % SPELLINGS.length]!, hashes: true });
    }
    if (a.meddle === 'same-read')
      return toolset.callTool('read_file', { path: SPELLINGS[a.line % SPELLINGS.length]!, hashes: true });
    return undefined;
  }

  for (const a of actions) {
    if (a.kind === 'read') {
      await toolset.callTool('read_file', { path: a.spelling, hashes: true });
      continue;
    }
    if (a.kind === 'outside') {
      fs.appendFileSync(file, `${a.text}\n`);
      continue;
    }
    const args = await argsFor(a);
    let shown: { payload: ApprovalPayload; state: string } | undefined;
    let afterPrompt: string | undefined;
    const approve: ApprovalCallback = async (r) => {
      shown = { payload: structuredClone(r.payload), state: disk() };
      if (a.meddle === 'mutate') Object.assign(r.args as object, { content: 'EVIL', new_string: 'EVIL' });
      if (!a.native) await meddleAfterApproval(a);
      afterPrompt = disk();
      return a.approve ? { approved: true } : { approved: false, note: 'no' };
    };
    let outcome: ToolOutcome;
    let before: string;
    let executedAsApproved = a.approve;
    let tampered = false;
    if (a.native) {
      const id = `c${++callNo}`;
      const decided = await decidePending(toolset, approve, {
        toolName: a.kind,
        toolCallId: id,
        input: args,
      });
      await meddleAfterApproval(a);
      let input: unknown = args;
      if (a.meddle === 'tamper') {
        input = { ...args, content: 'EVIL', new_string: 'EVIL' };
        tampered = true;
      }
      // 'swap': the framework runs the call whatever the user answered.
      if (!decided.approved && a.meddle !== 'swap') continue;
      executedAsApproved = decided.approved;
      before = disk();
      outcome = await executeApproved(toolset, a.kind, input, id);
    } else {
      const started = disk();
      outcome = await new ApprovalToolset(toolset, { approve }).callTool(a.kind, args);
      // The prompt's own meddling is not the tool's doing: compare with the file as the prompt left it.
      before = afterPrompt ?? started;
    }
    executions++;
    const after = disk();
    if (!outcome.ok) {
      // Failed: nothing changed.
      expect(after).toBe(before);
      continue;
    }
    applied++;
    // Succeeded: it was approved, untampered, and did exactly what was shown to the state shown.
    expect(shown).toBeDefined();
    expect(executedAsApproved).toBe(true);
    expect(tampered).toBe(false);
    const { payload, state } = shown!;
    expect(payload.baseSha256).toBe(sha(state));
    if (payload.type === 'write') expect(after).toBe(payload.content);
    else {
      const diff = (payload as { unifiedDiff: string }).unifiedDiff;
      expect(after).toBe(applyPatch(state, diff));
    }
    const meddled =
      a.meddle === 'outside' ||
      a.meddle === 'reread' ||
      (a.native && (a.meddle === 'tamper' || (a.meddle === 'swap' && !a.approve)));
    expect(meddled).toBe(false);
  }
}

describe('approval binding property', () => {
  it('what runs is exactly what was shown, or nothing changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 12 }),
        fc.array(action, { minLength: 1, maxLength: 8 }),
        async (initial, actions) => {
          runs++;
          await play(initial, actions);
        },
      ),
      { numRuns: 300 },
    );
    expect(applied).toBeGreaterThan(0);
  }, 120_000);

  it('swapped files and directories, re-pointed and dangling links, equal-content files: the approved FILE or nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(moveAction, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (actions, equal) => {
          moveStats.runs++;
          await playMoves(actions, equal);
        },
      ),
      { numRuns: 300 },
    );
    expect(moveStats.applied).toBeGreaterThan(0);
    expect(moveStats.refused).toBeGreaterThan(0);
  }, 180_000);
});
