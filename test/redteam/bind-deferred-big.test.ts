// Red team (rt-bind): deferred approvals (JsonFileDeferredStore on disk, with and without a secret)
// with multi-MB arguments holding odd characters at 64 Ki boundaries; history edited by one character
// between the two requests, or the record file's inner argument JSON re-escaped / reordered.
import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { DeferredApprovals } from '../../src/approval/deferred/deferred-approvals.js';
import { JsonFileDeferredStore } from '../../src/approval/deferred/json-file-store.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

const K = 1 << 16;
const content = (() => {
  const chars = 'x'.repeat(40 * K + 3).split('');
  const odd = ['"', '\\', '\n', '\u2028', '\u2029', '\ud83d\ude00', '\u0001', '\u202e'];
  for (let i = 1; i <= 39; i++) chars[i * K - 1] = odd[i % odd.length]!;
  chars[20 * K] = 'Q';
  return chars.join('');
})();

async function round(secret: string | undefined, edit: (messages: ModelMessage[], storeDir: string) => void) {
  const p = project({ 'a.txt': 'old\n' });
  const storeDir = path.join(tempDir(), 'store');
  const store = new JsonFileDeferredStore(storeDir);
  const make = () => new DeferredApprovals({ store, ...(secret ? { secret } : {}) });
  const m = scriptedModel([
    { calls: [{ id: 'c1', name: 'write_file', input: { path: '/a.txt', content } }] },
    { text: 'done' },
  ]);
  const toolsFor = (deferred: DeferredApprovals) =>
    aiSdkTools(new FileSystemToolset(p.sandbox), { approval: { mode: 'native', deferred } });
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const r1 = await generateText({
    model: m.model as never,
    tools: toolsFor(make()),
    messages,
    stopWhen: stepCountIs(3),
  });
  const req = r1.content.find((c) => c.type === 'tool-approval-request')!;
  messages.push(...(r1.response.messages as ModelMessage[]), {
    role: 'tool',
    content: [{ type: 'tool-approval-response', approvalId: req.approvalId, approved: true }],
  });
  const sent = JSON.parse(JSON.stringify(messages)) as ModelMessage[];
  edit(sent, storeDir);
  await generateText({
    model: m.model as never,
    tools: toolsFor(make()),
    messages: sent,
    stopWhen: stepCountIs(3),
  });
  return { disk: fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8'), seen: m.seenToolResults() };
}

const editInput = (
  messages: ModelMessage[],
  f: (input: Record<string, unknown>) => Record<string, unknown>,
) => {
  for (const msg of messages)
    if (Array.isArray(msg.content))
      for (const part of msg.content as Array<{ type: string; input?: Record<string, unknown> }>)
        if (part.type === 'tool-call' && part.input) part.input = f(part.input);
};
const editRecordFiles = (storeDir: string, f: (inner: string) => string) => {
  for (const name of fs.readdirSync(storeDir)) {
    const file = path.join(storeDir, name);
    if (!name.endsWith('.json') || name.includes('tombstone')) continue;
    const rec = JSON.parse(fs.readFileSync(file, 'utf8'));
    rec.binding.requestedArgs = f(rec.binding.requestedArgs);
    rec.binding.runArgs = f(rec.binding.runArgs);
    fs.writeFileSync(file, JSON.stringify(rec));
  }
};

describe('deferred, 2.6 MB write_file', () => {
  for (const secret of [undefined, 's3cret']) {
    const tag = secret ? 'secret' : 'no secret';
    it(`${tag}: unedited runs byte for byte`, async () => {
      const r = await round(secret, () => {});
      expect(r.disk === content).toBe(true);
    });
    it(`${tag}: history edited by one char at a 64 Ki boundary is refused`, async () => {
      const r = await round(secret, (msgs) =>
        editInput(msgs, (i) => ({ ...i, content: (i.content as string).replace('Q', 'R') })),
      );
      expect(r.disk).toBe('old\n');
    });
    it(`${tag}: history with keys reordered (same value) runs exactly`, async () => {
      const r = await round(secret, (msgs) => editInput(msgs, (i) => ({ content: i.content, path: i.path })));
      expect(r.disk === content || r.disk === 'old\n').toBe(true);
    });
    it(`${tag}: record file's inner argument JSON re-escaped (x as \\u0078) is refused, not run differently`, async () => {
      const r = await round(secret, (_m, dir) => editRecordFiles(dir, (j) => j.replace('Q', '\\u0051')));
      expect(r.disk).toBe('old\n');
    });
    it(`${tag}: record file's inner argument JSON swapped for the edited call (history edited too)`, async () => {
      const r = await round(secret, (msgs, dir) => {
        editRecordFiles(dir, (j) => j.replace('Q', 'R'));
        editInput(msgs, (i) => ({ ...i, content: (i.content as string).replace('Q', 'R') }));
      });
      expect(r.disk).toBe('old\n');
    });
  }
});
