// Red team (rt-bind): the approval callback gets its own copies of request.args and request.payload,
// but request.targets (the files the payload was computed for, bound into the ApprovalBinding) is the
// engine's own object. A callback that edits it (e.g. a UI trimming what it displays) changes what is
// bound: the file-identity check is lost and a swap made while the person looks is no longer refused.
import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { project } from '../tools/fixture.js';

const P = (dir: string, rel: string) => path.join(dir, rel);

type Mutation = (r: ApprovalRequest) => void;
const mutations: Array<[string, Mutation]> = [
  ['none (control)', () => {}],
  ['delete request.targets.path', (r) => delete (r.targets as { path?: unknown }).path],
  [
    'targets.path replaced by a JSON round trip of itself minus identity fields',
    (r) => {
      const t = r.targets as { path?: Record<string, unknown> };
      if (t.path) for (const k of Object.keys(t.path)) if (k !== 'name') delete t.path[k];
    },
  ],
];

describe('request.targets mutated by the approval callback', () => {
  for (const [name, mutate] of mutations) {
    it(`${name}: parent dir re-pointed during the prompt never writes into the other directory`, async () => {
      const p = project({ 'd/a.txt': 'old\n', 'o/a.txt': 'old\n' });
      const gated = new ApprovalToolset(p.toolset, {
        approve: (r) => {
          mutate(r);
          // while the person looks: /d is replaced by a link to /o (same names, same bytes)
          fs.renameSync(P(p.dir, 'd'), P(p.dir, 'd.bak'));
          fs.symlinkSync('o', P(p.dir, 'd'));
          return { approved: true };
        },
      });
      const o = await gated.callTool('write_file', { path: '/d/a.txt', content: 'new\n' });
      expect(fs.readFileSync(P(p.dir, 'o/a.txt'), 'utf8')).toBe('old\n');
      expect(o.ok ? 'ok' : o.error.code).toBe('stale_approval');
    });
    it(`${name}: file swapped for a same-bytes file during the prompt is refused`, async () => {
      const p = project({ 'a.txt': 'old\n' });
      const gated = new ApprovalToolset(p.toolset, {
        approve: (r) => {
          mutate(r);
          fs.writeFileSync(P(p.dir, 'a.tmp'), 'old\n');
          fs.renameSync(P(p.dir, 'a.tmp'), P(p.dir, 'a.txt'));
          return { approved: true };
        },
      });
      const o = await gated.callTool('write_file', { path: '/a.txt', content: 'new\n' });
      expect(o.ok ? 'ok' : o.error.code).toBe('stale_approval');
    });
  }
});

describe('native (AI SDK): request.targets mutated by the callback given to answerApprovals', () => {
  it('parent dir re-pointed between approval and execution never writes into the other directory', async () => {
    const p = project({ 'd/a.txt': 'old\n', 'o/a.txt': 'old\n' });
    const m = scriptedModel([
      { calls: [{ id: 'c1', name: 'write_file', input: { path: '/d/a.txt', content: 'new\n' } }] },
      { text: 'done' },
    ]);
    const tools = aiSdkTools(p.toolset, { approval: { mode: 'native' } });
    const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
    const r1 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
    messages.push(...r1.response.messages);
    messages.push(
      await answerApprovals(r1, {
        toolset: p.toolset,
        approve: (r) => {
          delete (r.targets as { path?: unknown }).path;
          return { approved: true };
        },
      }),
    );
    fs.renameSync(P(p.dir, 'd'), P(p.dir, 'd.bak'));
    fs.symlinkSync('o', P(p.dir, 'd'));
    await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
    expect(fs.readFileSync(P(p.dir, 'o/a.txt'), 'utf8')).toBe('old\n');
  });
});
