import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { DeferredApprovals, type UIHistory } from '../../src/approval/deferred/deferred-approvals.js';
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
    it('keeps the first showing of a call id and hands it out once', async () => {
      const deferred = new DeferredApprovals({ store: make() });
      const first = await deferred.ask(asked('c1'));
      const again = await deferred.ask({ ...asked('c1'), input: { path: '/a', content: 'other' } });
      expect(again.binding.requestedArgs).toBe(first.binding.requestedArgs);
      const claims = await Promise.all([deferred.claim('c1'), deferred.claim('c1')]);
      expect(claims.map((c) => c.status).sort()).toEqual(['bound', 'missing']);
      expect(await deferred.shown('c1')).toBeUndefined();
    });

    it('an expired approval is refused and pruned', async () => {
      let now = new Date('2026-01-01T00:00:00Z');
      const store = make();
      const deferred = new DeferredApprovals({ store, ttlMs: 1000, now: () => now });
      await deferred.ask(asked('old'));
      now = new Date('2026-01-01T00:00:05Z');
      expect(await deferred.shown('old')).toBeUndefined();
      const claim = await deferred.claim('old');
      expect(claim).toMatchObject({ status: 'refused', error: { code: 'stale_approval' } });
      await deferred.ask(asked('c2'));
      await deferred.ask(asked('c3'));
      now = new Date('2026-01-01T00:00:10Z');
      await deferred.ask(asked('c4'));
      expect(await store.get('c2')).toBeUndefined();
      expect(await store.get('c4')).toBeDefined();
    });

    it('with a secret, a record written under another key is refused', async () => {
      const store = make();
      await new DeferredApprovals({ store, secret: 'a' }).ask(asked('c1'));
      const claim = await new DeferredApprovals({ store, secret: 'b' }).claim('c1');
      expect(claim).toMatchObject({ status: 'refused', error: { code: 'stale_approval' } });
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
    second: (history: UIHistory) => DeferredApprovals | undefined = () => first,
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
    const record = await first?.shown('c1');
    const history: UIHistory = record
      ? [
          {
            parts: [
              {
                type: 'data-sandbox-approval',
                data: { toolCallId: 'c1', payload: record.payload, toolName: record.toolName },
              } as never,
            ],
          },
        ]
      : [];
    between(p.dir);
    // ai@7: responseMessages; ai@6: response.messages (scripts/ai6-compat.sh runs this file on both).
    const round1 = ((r1 as { responseMessages?: ModelMessage[] }).responseMessages ??
      r1.response.messages) as ModelMessage[];
    messages.push(...round1, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: req.approvalId, approved: true }],
    });
    await generateText({
      model: m.model as never,
      tools: toolsFor(second(history)),
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

  it('no record, but the history shows the payload: re-checked, runs when nothing changed', async () => {
    const r = await round(
      new DeferredApprovals(),
      () => {},
      (h) => new DeferredApprovals().withHistory(h),
    );
    expect(r.content).toBe('new\n');
  });

  it('no record, the history shows the payload, the file changed: stale_approval, untouched', async () => {
    const r = await round(new DeferredApprovals(), change, (h) => new DeferredApprovals().withHistory(h));
    expect(r.seen).toContain('stale_approval');
    expect(r.content).toBe('mine\n');
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
});
