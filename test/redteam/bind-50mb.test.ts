// Red team (rt-bind): 50 MB write_file through blocking approval + "remember this exact call", and native
// AI SDK + remember/override combinations: what runs is what the person approved, byte for byte.
import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { project } from '../tools/fixture.js';

const K = 1 << 16;
const MB50 = 50 * 1024 * 1024;

describe('50 MB write_file, blocking', () => {
  it('approved with remember call: runs exactly; one char changed at 64 Ki multiples is asked again', async () => {
    const chars = Buffer.alloc(MB50, 'x').toString('latin1');
    const content = `${chars.slice(0, 400 * K - 1)}\u2028${chars.slice(400 * K, MB50 - 3)}"\\\n`;
    const p = project({ 'a.txt': 'old\n' });
    let asks = 0;
    const gated = new ApprovalToolset(p.toolset, {
      memory: new ApprovalMemory(),
      approve: (r) => {
        asks++;
        (r.args as { content: string }).content = 'EVIL';
        return asks === 1
          ? { approved: true, remember: { scope: 'call' } }
          : { approved: false, note: 'again' };
      },
    });
    const o = await gated.callTool('write_file', { path: '/a.txt', content });
    expect(o.ok).toBe(true);
    expect(fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8') === content).toBe(true);
    for (const at of [400 * K - 1, 400 * K, 799 * K, MB50 - 4]) {
      const before = asks;
      const changed = content.slice(0, at) + (content[at] === 'x' ? 'y' : 'x') + content.slice(at + 1);
      const r = await gated.callTool('write_file', { path: '/a.txt', content: changed });
      expect(asks).toBe(before + 1);
      expect(r.ok).toBe(false);
    }
    expect(fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8') === content).toBe(true);
    fs.rmSync(p.dir, { recursive: true, force: true });
  }, 180_000);
});

describe('native AI SDK: remember + overrideArgs', () => {
  it('a call approved only in an edited form is not remembered as approved in the form the model sent', async () => {
    const p = project({ 'a.txt': 'old\n' });
    const memory = new ApprovalMemory();
    const tools = aiSdkTools(p.toolset, { approval: { mode: 'native' } });
    const roundWith = async (id: string) => {
      const m = scriptedModel([
        { calls: [{ id, name: 'write_file', input: { path: '/a.txt', content: 'MODEL\n' } }] },
        { text: 'done' },
      ]);
      const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
      const r1 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
      messages.push(...r1.response.messages);
      let asked = false;
      const answered = answerApprovals(r1, {
        toolset: p.toolset,
        memory,
        approve: () => {
          asked = true;
          return id === 'c1'
            ? {
                approved: true,
                overrideArgs: { path: '/a.txt', content: 'PERSON\n' },
                remember: { scope: 'call' },
              }
            : { approved: false, note: 'asked again' };
        },
      });
      if (id === 'c1') {
        // An edited approval that also asks to be remembered is refused (TypeError): nothing remembered, nothing run.
        await expect(answered).rejects.toThrow(/cannot also remember/);
        return asked;
      }
      messages.push(await answered);
      await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
      return asked;
    };
    await roundWith('c1');
    expect(fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8')).toBe('old\n');
    expect(await roundWith('c2')).toBe(true);
    // The person never approved content MODEL: it must not be written without asking.
    expect(fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8')).not.toBe('MODEL\n');
  });
});
