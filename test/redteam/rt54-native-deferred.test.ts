// Red team rt54: stored approvals and the lazy diff. Native mode (answerApprovals) with several
// edits of one file in one step, each diff read at an odd time (never, after the batch ran, in
// another task); deferred records (web) whose payload diff and binding shownDiff must be the
// diff that is then written; an altered record refused; a denied call never writing.
import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals, responseMessagesOf } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import {
  type ApprovalRequest,
  DeferredApprovals,
  FileSystemToolset,
  JsonFileDeferredStore,
  Sandbox,
} from '../../src/index.js';
import { snapshot, tempDir } from '../helpers/temp-project.js';
import { applyStrict, countProblems, project, sleep } from './rt54-helpers.js';

type DiffPayload = {
  unifiedDiff: string;
  diffLines: number;
  added: number;
  removed: number;
  diffCoarse?: boolean;
};
type Call = { id: string; name: string; input: Record<string, unknown> };

/** Applies the diffs one after another, each hunk placed by its context (offset allowed, no fuzz). */
function applyInSequence(text: string, diffs: string[]): string | undefined {
  let t = text;
  for (const d of diffs) {
    const rows = d.split('\n');
    rows.pop();
    const hunks: { old: string[]; neu: string[] }[] = [];
    for (let i = 2; i < rows.length; i++) {
      const r = rows[i]!;
      if (r.startsWith('@@ ')) hunks.push({ old: [], neu: [] });
      else if (r === '\\ No newline at end of file') {
        const h = hunks.at(-1)!;
        const prev = rows[i - 1]!;
        if (prev[0] !== '+') h.old[h.old.length - 1] = h.old.at(-1)!.slice(0, -1);
        if (prev[0] !== '-') h.neu[h.neu.length - 1] = h.neu.at(-1)!.slice(0, -1);
      } else {
        const h = hunks.at(-1)!;
        if (r[0] !== '+') h.old.push(`${r.slice(1)}\n`);
        if (r[0] !== '-') h.neu.push(`${r.slice(1)}\n`);
      }
    }
    // Replace from the end so earlier hunks keep their places; each old block must occur once.
    for (const h of [...hunks].reverse()) {
      const o = h.old.join('');
      const at = t.indexOf(o);
      if (at === -1 || t.indexOf(o, at + 1) !== -1) return undefined;
      t = t.slice(0, at) + h.neu.join('') + t.slice(at + o.length);
    }
  }
  return t;
}

async function nativeBatch(
  before: string,
  calls: Call[],
  decide: (req: ApprovalRequest, i: number) => { approved: boolean },
  readAt: 'callback' | 'after-batch' | 'task' | 'never-then-json',
) {
  const { dir } = project({ 'f.txt': before });
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const m = scriptedModel([{ calls }, { text: 'done' }]);
  const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const r1 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
  const payloads: DiffPayload[] = [];
  const diffs: (string | Promise<string>)[] = [];
  let i = 0;
  const answer = await answerApprovals(r1, {
    toolset,
    approve: (req) => {
      const p = req.payload as unknown as DiffPayload;
      payloads.push(p);
      if (readAt === 'callback') diffs.push(p.unifiedDiff);
      else if (readAt === 'task') diffs.push(sleep(20).then(() => p.unifiedDiff));
      return decide(req, i++);
    },
  });
  messages.push(...responseMessagesOf(r1), answer);
  const shown = snapshot(dir);
  await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
  const shownDiffs: string[] = [];
  for (let k = 0; k < payloads.length; k++) {
    const p = payloads[k]!;
    shownDiffs.push(
      readAt === 'after-batch'
        ? p.unifiedDiff
        : readAt === 'never-then-json'
          ? JSON.parse(JSON.stringify(p)).unifiedDiff
          : await diffs[k]!,
    );
  }
  return {
    payloads,
    shownDiffs,
    results: m.seenToolResults(),
    shown,
    after: fs.readFileSync(path.join(dir, 'f.txt'), 'utf8'),
    dir,
  };
}

describe('rt54: native batches on one file, diffs read at odd times', () => {
  it('generated batches of edit_file calls: what is written is the shown diffs applied in turn; denied ones never', async () => {
    const base = Array.from({ length: 40 }, (_, i) => `line ${i} ${i % 4 === 0 ? '}' : 'x'}`);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 39 }), { minLength: 2, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.constantFrom('\n', '\r\n'),
        fc.constantFrom('callback', 'after-batch', 'task', 'never-then-json') as fc.Arbitrary<
          'callback' | 'after-batch' | 'task' | 'never-then-json'
        >,
        async (targets, approvals, eol, readAt) => {
          const before = base.join(eol) + eol;
          const calls: Call[] = targets.map((t, k) => ({
            id: `c${k}`,
            name: 'edit_file',
            input: { path: '/f.txt', old_string: `line ${t} `, new_string: `LINE ${t}\nadded ${k} ` },
          }));
          const r = await nativeBatch(before, calls, (_req, k) => ({ approved: approvals[k]! }), readAt);
          expect(r.payloads.length).toBe(calls.length);
          for (let k = 0; k < r.payloads.length; k++)
            expect(countProblems({ ...r.payloads[k]!, unifiedDiff: r.shownDiffs[k]! })).toEqual([]);
          // Each shown diff applied strictly to the file as shown.
          for (let k = 0; k < r.payloads.length; k++) {
            const applied = applyStrict(before, r.shownDiffs[k]!);
            expect(applied.startsWith('REFUSED')).toBe(false);
          }
          const approvedDiffs = r.shownDiffs.filter((_, k) => approvals[k]);
          const expected = applyInSequence(before, approvedDiffs);
          if (r.after === before) {
            // Nothing ran: every approved one must have been refused, none denied ran.
            return;
          }
          // Whatever ran must be the sequence of some approved shown diffs (those that were refused left out).
          const candidates: string[] = [];
          const n = approvedDiffs.length;
          for (let mask = 1; mask < 1 << n; mask++) {
            const pick = approvedDiffs.filter((_, k) => mask & (1 << k));
            const t = applyInSequence(before, pick);
            if (t !== undefined) candidates.push(t);
          }
          expect(candidates).toContain(r.after);
          if (expected !== undefined && !/stale_approval/.test(r.results)) expect(r.after).toBe(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('every call denied: nothing written, whatever the diffs were read as', async () => {
    const before = 'a\r\nb\r\nc';
    const calls: Call[] = [
      { id: 'c0', name: 'edit_file', input: { path: '/f.txt', old_string: 'a', new_string: 'A' } },
      { id: 'c1', name: 'write_file', input: { path: '/f.txt', content: 'x\n' } },
      { id: 'c2', name: 'write_file', input: { path: '/g.txt', content: 'new\n' } },
    ];
    const r = await nativeBatch(before, calls, () => ({ approved: false }), 'never-then-json');
    expect(r.after).toBe(before);
    expect(snapshot(r.dir)).toEqual(r.shown);
    expect(fs.existsSync(path.join(r.dir, 'g.txt'))).toBe(false);
  });
});

describe('rt54: deferred (web) records carry the diff that is written', () => {
  async function deferredRound(
    files: Record<string, string>,
    call: Call,
    store: JsonFileDeferredStore,
    between?: (dir: string, storeDir: string) => void,
  ) {
    const p = project(files);
    const m = scriptedModel([{ calls: [call] }, { text: 'done' }]);
    const toolsFor = (deferred: DeferredApprovals) =>
      aiSdkTools(new FileSystemToolset(Sandbox.fromDirectory(p.dir, { mode: 'rw' })), {
        approval: { mode: 'native', deferred },
      });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const first = new DeferredApprovals({ store, secret: 'k' });
    const r1 = await generateText({
      model: m.model as never,
      tools: toolsFor(first),
      messages,
      stopWhen: stepCountIs(3),
    });
    const req = r1.content.find((c) => c.type === 'tool-approval-request')!;
    const record = await first.shown(call.id);
    await sleep(20);
    between?.(p.dir, store.constructor.name);
    messages.push(...responseMessagesOf(r1), {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: (req as { approvalId: string }).approvalId,
          approved: true,
        },
      ],
    });
    const beforeExec = snapshot(p.dir);
    await generateText({
      model: m.model as never,
      tools: toolsFor(new DeferredApprovals({ store, secret: 'k' })),
      messages,
      stopWhen: stepCountIs(3),
    });
    return { record, results: m.seenToolResults(), beforeExec, now: snapshot(p.dir), dir: p.dir };
  }

  const CASES: Array<[string, string, Call]> = [
    [
      'edit CRLF no final newline',
      'a\r\nb\r\nc',
      { id: 'c1', name: 'edit_file', input: { path: '/f.txt', old_string: 'c', new_string: 'C\nD' } },
    ],
    [
      'overwrite BOM file',
      '\ufeffone\ntwo\n',
      { id: 'c1', name: 'write_file', input: { path: '/f.txt', content: 'one\n2\n' } },
    ],
    [
      'edit lone CR and U+2028',
      'p\rq\nr\u2028s\nt\n',
      { id: 'c1', name: 'edit_file', input: { path: '/f.txt', old_string: 'r\u2028s', new_string: 'R' } },
    ],
    [
      'replace_all 20k lines',
      Array.from({ length: 20_000 }, (_, i) => `k${i % 3}`).join('\n'),
      {
        id: 'c1',
        name: 'edit_file',
        input: { path: '/f.txt', old_string: 'k1', new_string: 'K\n1', replace_all: true },
      },
    ],
  ];
  for (const [name, before, call] of CASES) {
    it(`${name}: record payload diff == binding shownDiff == what is written`, async () => {
      const store = new JsonFileDeferredStore(path.join(tempDir(), 'store'));
      const r = await deferredRound({ 'f.txt': before }, call, store);
      expect(r.record).toBeDefined();
      const rec = r.record as unknown as { payload: DiffPayload; binding: { shownDiff?: string } };
      expect(rec.binding.shownDiff).toBe(rec.payload.unifiedDiff);
      expect(countProblems(rec.payload)).toEqual([]);
      expect(r.results).not.toMatch(/stale_approval|approval_blocked/);
      expect(applyStrict(before, rec.payload.unifiedDiff)).toBe(
        r.now['f.txt'] !== undefined ? fs.readFileSync(path.join(r.dir, 'f.txt'), 'utf8') : '',
      );
    });
  }

  it('a record whose payload diff (or shownDiff) was altered in the store is refused, nothing written', async () => {
    for (const field of ['payload', 'binding'] as const) {
      const storeDir = path.join(tempDir(), 'store');
      const store = new JsonFileDeferredStore(storeDir);
      const r = await deferredRound(
        { 'f.txt': 'one\ntwo\n' },
        { id: 'c1', name: 'edit_file', input: { path: '/f.txt', old_string: 'two', new_string: 'TWO' } },
        store,
        () => {
          for (const f of fs.readdirSync(storeDir)) {
            if (!f.endsWith('.json') || f.includes('tombstone')) continue;
            const full = path.join(storeDir, f);
            const rec = JSON.parse(fs.readFileSync(full, 'utf8'));
            if (field === 'payload')
              rec.payload.unifiedDiff = rec.payload.unifiedDiff.replace('+TWO', '+TW0');
            else rec.binding.shownDiff = String(rec.binding.shownDiff).replace('+TWO', '+TW0');
            fs.writeFileSync(full, JSON.stringify(rec));
          }
        },
      );
      expect(r.now).toEqual(r.beforeExec);
      expect(r.results).toMatch(/stale_approval|approval_blocked/);
    }
  });
});
