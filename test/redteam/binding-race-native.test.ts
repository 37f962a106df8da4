import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { stopProcess } from '../helpers/stop-process.js';
import { tempDir } from '../helpers/temp-project.js';

const P = (dir: string, rel: string) => path.join(dir, rel);

describe('AI SDK native mode, another process exchanging directories with different content', () => {
  it('an approved write never replaces content the person was not shown', async () => {
    const dir = tempDir({ 'd/a.txt': 'SHOWN-A\n', 'o/a.txt': 'UNSEEN-B\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
    const py = `import ctypes
libc=ctypes.CDLL(None,use_errno=True)
a=${JSON.stringify(P(dir, 'd'))}.encode();b=${JSON.stringify(P(dir, 'o'))}.encode()
while True: libc.renameat2(-100,a,-100,b,2)`;
    const child = spawn('python3', ['-c', py], { stdio: 'ignore' });
    const X = fs.statSync(P(dir, 'd')).ino;
    const lost: string[] = [];
    let oks = 0;
    try {
      // A time budget keeps the suite fast on a loaded machine; the assertion is zero violations.
      const until = Date.now() + 3000;
      for (let i = 0; i < 150 && Date.now() < until; i++) {
        const m = scriptedModel([
          { calls: [{ id: `c${i}`, name: 'write_file', input: { path: '/d/a.txt', content: `v${i}\n` } }] },
          { text: 'done' },
        ]);
        const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
        const r1 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
        messages.push(...r1.response.messages);
        let shown = '?';
        messages.push(
          await answerApprovals(r1, {
            toolset,
            approve: (r) => {
              const diff = String((r.payload as { unifiedDiff?: string }).unifiedDiff);
              shown = diff.includes('-SHOWN-A') ? 'SHOWN-A' : diff.includes('-UNSEEN-B') ? 'UNSEEN-B' : '?';
              return { approved: true };
            },
          }),
        );
        await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
        await stopProcess(child);
        for (const n of ['d', 'o']) {
          if (fs.readFileSync(P(dir, `${n}/a.txt`), 'utf8') !== `v${i}\n`) continue;
          oks++;
          const was = fs.statSync(P(dir, n)).ino === X ? 'SHOWN-A' : 'UNSEEN-B';
          if (was !== shown) lost.push(`#${i}: person saw "-${shown}", "${was}" was overwritten`);
        }
        for (const n of ['d', 'o'])
          fs.writeFileSync(
            P(dir, `${n}/a.txt`),
            fs.statSync(P(dir, n)).ino === X ? 'SHOWN-A\n' : 'UNSEEN-B\n',
          );
        child.kill('SIGCONT');
      }
    } finally {
      child.kill('SIGKILL');
    }
    console.log(`applied ${oks}/150, overwrote unseen ${lost.length}`);
    expect(lost).toEqual([]);
  }, 180_000);
});
