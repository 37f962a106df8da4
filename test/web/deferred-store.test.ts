import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, responseMessagesOf } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { DeferredApprovals } from '../../src/approval/deferred/deferred-approvals.js';
import { JsonFileDeferredStore } from '../../src/approval/deferred/json-file-store.js';
import { MemoryDeferredStore } from '../../src/approval/deferred/memory-store.js';
import type { DeferredApprovalStore } from '../../src/approval/deferred/types.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

const payload = { type: 'generic', description: 'd', path: '/a', mount: '/' } as const;
const asked = (toolCallId: string) => ({
  toolName: 'write_file',
  toolCallId,
  input: { path: '/a', content: 'x' },
  payload: payload as never,
});

for (const [name, make] of [
  ['memory', () => new MemoryDeferredStore()],
  ['json-file', () => new JsonFileDeferredStore(path.join(tempDir(), 'store'))],
] as Array<[string, () => DeferredApprovalStore]>) {
  describe(`${name} store`, () => {
    it('keeps the first showing of a call id and hands it out once, then tombstones it', async () => {
      const deferred = new DeferredApprovals({ store: make() });
      const first = await deferred.ask(asked('c1'));
      const again = await deferred.ask({ ...asked('c1'), input: { path: '/a', content: 'other' } });
      expect(again?.binding.requestedArgs).toBe(first?.binding.requestedArgs);
      const claims = await Promise.all([deferred.claim('c1'), deferred.claim('c1')]);
      expect(claims.map((c) => c.status).sort()).toEqual(['bound', 'refused']);
      expect(await deferred.shown('c1')).toBeUndefined();
      // A re-ask of a used call id records nothing: it can never be approved again.
      expect(await deferred.ask(asked('c1'))).toBeUndefined();
      expect(await deferred.claim('c1')).toMatchObject({
        status: 'refused',
        error: { code: 'approval_blocked' },
      });
    });

    it('a denial is final: neither a claim nor a re-ask brings the call back', async () => {
      const deferred = new DeferredApprovals({ store: make() });
      await deferred.ask(asked('c1'));
      await deferred.deny('c1');
      expect(await deferred.claim('c1')).toMatchObject({
        status: 'refused',
        error: { code: 'approval_blocked' },
      });
      expect(await deferred.ask(asked('c1'))).toBeUndefined();
    });

    it('conversations never see each other’s call ids', async () => {
      const deferred = new DeferredApprovals({ store: make() });
      const a = deferred.forConversation('chat-a');
      const b = deferred.forConversation('chat-b');
      await a.ask(asked('call_0'));
      expect(await b.shown('call_0')).toBeUndefined();
      expect(await b.claim('call_0')).toEqual({ status: 'missing' });
      expect((await b.ask({ ...asked('call_0'), input: { path: '/a', content: 'b' } }))?.conversationId).toBe(
        'chat-b',
      );
      expect((await a.claim('call_0')).status).toBe('bound');
      expect((await b.claim('call_0')).status).toBe('bound');
    });

    it('a record asked for one sandbox is neither shown nor claimed by another', async () => {
      const deferred = new DeferredApprovals({ store: make() });
      await deferred.ask({ ...asked('c1'), sandboxId: 'sb-1' });
      expect(await deferred.shown('c1', 'sb-2')).toBeUndefined();
      expect(await deferred.claim('c1', 'sb-2')).toMatchObject({ status: 'refused' });
      expect((await deferred.claim('c1', 'sb-1')).status).toBe('bound');
    });

    it('an expired approval is refused; pruned, it leaves a tombstone that outlives it', async () => {
      let now = new Date('2026-01-01T00:00:00Z');
      const store = make();
      const deferred = new DeferredApprovals({ store, ttlMs: 1000, now: () => now });
      await deferred.ask(asked('old'));
      now = new Date('2026-01-01T00:00:05Z');
      expect(await deferred.shown('old')).toBeUndefined();
      await deferred.ask(asked('c2')); // prunes: 'old' becomes an expired tombstone
      expect(await deferred.ask(asked('old'))).toBeUndefined();
      expect(await deferred.claim('old')).toMatchObject({
        status: 'refused',
        error: { code: 'approval_blocked' },
      });
    });

    it('with a secret, a record written under another key is refused', async () => {
      const store = make();
      await new DeferredApprovals({ store, secret: 'a' }).ask(asked('c1'));
      const claim = await new DeferredApprovals({ store, secret: 'b' }).claim('c1');
      expect(claim).toMatchObject({ status: 'refused', error: { code: 'stale_approval' } });
    });

    it('property: whatever the order of asks, denials, claims and prunes, a call id binds at most once and never after a denial, while its tombstone is kept (2 × ttl)', async () => {
      const op = fc.record({
        kind: fc.constantFrom('ask', 'claim', 'deny', 'tick'),
        chat: fc.constantFrom('a', 'b'),
        id: fc.constantFrom('call_0', 'call_1'),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
          let now = 0;
          const ttlMs = 1000;
          const deferred = new DeferredApprovals({ store: make(), ttlMs, now: () => new Date(now) });
          // When each call id was bound or denied: its tombstone stands until 2 × ttl after that
          // (past it, the same id asked again is a new request, shown again; see docs/web.md).
          const bound = new Map<string, number>();
          const denied = new Map<string, number>();
          const settledWithin = (m: Map<string, number>, key: string) =>
            m.has(key) && now <= m.get(key)! + 2 * ttlMs;
          for (const o of ops) {
            const view = deferred.forConversation(o.chat);
            const key = `${o.chat}/${o.id}`;
            if (o.kind === 'tick') now += 700;
            else if (o.kind === 'ask') await view.ask(asked(o.id));
            else if (o.kind === 'deny') {
              await view.deny(o.id);
              denied.set(key, now);
            } else if ((await view.claim(o.id)).status === 'bound') {
              expect(settledWithin(bound, key)).toBe(false);
              expect(settledWithin(denied, key)).toBe(false);
              bound.set(key, now);
            }
          }
        }),
        { numRuns: name === 'memory' ? 200 : 30 },
      );
    });
  });
}

describe('deferred approvals in one process, fresh toolset per request', () => {
  const call = { id: 'c1', name: 'write_file', input: { path: '/notes.md', content: 'new\n' } };

  /**
   * Request 1 asks with `first`; `between` runs; request 2 (fresh toolset) executes
   * with `second(shown)`, where `shown` is the data part request 1 streamed.
   */
  async function round(
    first: DeferredApprovals | undefined,
    between: (dir: string) => void,
    second: () => DeferredApprovals | undefined = () => first,
  ) {
    const p = project({ 'notes.md': 'shown\n' });
    const m = scriptedModel([{ calls: [call] }, { text: 'done' }]);
    const toolsFor = (deferred: DeferredApprovals | undefined) =>
      aiSdkTools(new FileSystemToolset(p.sandbox), { approval: { mode: 'native', deferred } });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const r1 = await generateText({
      model: m.model as never,
      tools: toolsFor(first),
      messages,
      stopWhen: stepCountIs(3),
    });
    const req = r1.content.find((c) => c.type === 'tool-approval-request')!;
    between(p.dir);
    // scripts/ai6-compat.sh runs this file on ai@6 as well.
    const round1 = responseMessagesOf(r1);
    messages.push(...round1, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: req.approvalId, approved: true }],
    });
    await generateText({
      model: m.model as never,
      tools: toolsFor(second()),
      messages,
      stopWhen: stepCountIs(3),
    });
    return { seen: m.seenToolResults(), content: fs.readFileSync(path.join(p.dir, 'notes.md'), 'utf8') };
  }

  const change = (dir: string) => fs.writeFileSync(path.join(dir, 'notes.md'), 'mine\n');

  it('a lost record is never replaced by the resume re-check: approval_blocked, untouched', async () => {
    const r = await round(new DeferredApprovals(), change, () => new DeferredApprovals());
    expect(r.seen).toContain('approval_blocked');
    expect(r.content).toBe('mine\n');
  });

  it('a forged history (data part and approval for a call this server never recorded) never runs', async () => {
    // The first request asks nothing (no deferred store); the second finds no record: approval_blocked.
    const r = await round(
      undefined,
      () => {},
      () => new DeferredApprovals(),
    );
    expect(r.seen).toContain('approval_blocked');
    expect(r.content).toBe('shown\n');
  });

  it('the in-memory default store carries the approval to the next request', async () => {
    const r = await round(new DeferredApprovals(), () => {});
    expect(r.content).toBe('new\n');
  });

  it('the file changed in between: stale_approval, untouched', async () => {
    const r = await round(new DeferredApprovals(), (dir) =>
      fs.writeFileSync(path.join(dir, 'notes.md'), 'mine\n'),
    );
    expect(r.seen).toContain('stale_approval');
    expect(r.content).toBe('mine\n');
  });

  it('without deferred approvals, an approval answered elsewhere is never run blind', async () => {
    const r = await round(undefined, () => {});
    expect(r.seen).toContain('approval_blocked');
    expect(r.content).toBe('shown\n');
  });

  it('responseMessagesOf keeps every step of a round (an earlier tool result too), on ai v6 and v7', async () => {
    const p = project({ 'notes.md': 'shown\n' });
    const m = scriptedModel([
      { calls: [{ id: 'r1', name: 'read_file', input: { path: '/notes.md' } }] },
      { calls: [call] },
    ]);
    const tools = aiSdkTools(new FileSystemToolset(p.sandbox), { approval: { mode: 'native' } });
    const r = await generateText({ model: m.model as never, tools, prompt: 'go', stopWhen: stepCountIs(5) });
    const parts = responseMessagesOf(r).flatMap((msg) =>
      Array.isArray(msg.content) ? (msg.content as Array<{ type: string; toolCallId?: string }>) : [],
    );
    const types = parts.map((part) => `${part.type}:${part.toolCallId ?? ''}`);
    expect(types).toEqual(
      expect.arrayContaining(['tool-call:r1', 'tool-result:r1', 'tool-call:c1', 'tool-approval-request:c1']),
    );
  });
});

describe('json-file store: a restored record file never shadows its tombstone', () => {
  it('for any settle state, restoring the old record file leaves get, putIfAbsent and settle on the tombstone', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('claimed', 'denied', 'expired'),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        async (state, raw) => {
          const key = raw.toLowerCase();
          const dir = path.join(tempDir(), 'store');
          const store = new JsonFileDeferredStore(dir);
          const at = new Date().toISOString();
          const record = {
            v: 1,
            conversationId: 'c',
            toolCallId: 't',
            expiresAt: new Date(Date.now() + 60_000).toISOString(),
          } as never;
          await store.putIfAbsent(key, record);
          const saved = fs.readFileSync(path.join(dir, `${key}.json`));
          const tomb = {
            v: 1,
            state,
            conversationId: 'c',
            toolCallId: 't',
            at,
            keepUntil: new Date(Date.now() + 60_000).toISOString(),
          } as const;
          expect(await store.settle(key, tomb)).toEqual(record);
          fs.writeFileSync(path.join(dir, `${key}.json`), saved); // the rollback
          expect(await store.get(key)).toEqual(tomb);
          expect(await store.putIfAbsent(key, record)).toEqual(tomb);
          expect(await store.settle(key, tomb)).toBeUndefined();
        },
      ),
      { numRuns: 20 },
    );
  });
});
