import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

type Op = { kind: 'replace' | 'insert_after' | 'delete'; line: number; content: string };

function applyOps(lines: string[], ops: Op[]): string[] {
  // ops in original coordinates, applied bottom-up
  const out = lines.slice();
  for (const o of [...ops].sort((a, b) => b.line - a.line)) {
    if (o.kind === 'replace') out.splice(o.line, 1, o.content);
    else if (o.kind === 'insert_after') out.splice(o.line + 1, 0, o.content);
    else out.splice(o.line, 1);
  }
  return out;
}

const toolOp = (o: Op, anchor: string) =>
  o.kind === 'replace'
    ? { op: 'replace_line', hash: anchor, content: o.content }
    : o.kind === 'insert_after'
      ? { op: 'insert_after', hash: anchor, content: o.content }
      : { op: 'delete_line', hash: anchor };

describe('native mode: two approved edit_lines calls on one low-entropy file (rebase)', () => {
  it('each lands where it was shown, or the later one is refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('}', '', '}', '', 'x'), { minLength: 4, maxLength: 60 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('replace', 'insert_after', 'delete'),
        fc.constantFrom('replace', 'insert_after', 'delete'),
        fc.constantFrom('}', '', 'x', 'NEW'),
        fc.constantFrom('}', '', 'x', 'NEW2'),
        async (lines, a, b, k1, k2, c1, c2) => {
          const i = a % lines.length;
          const j = b % lines.length;
          if (i === j || Math.abs(i - j) < 1) return;
          const ops: [Op, Op] = [
            { kind: k1 as Op['kind'], line: i, content: c1 },
            { kind: k2 as Op['kind'], line: j, content: c2 },
          ];
          const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
          try {
            const text = `${lines.join('\n')}\n`;
            fs.writeFileSync(path.join(dir, 'f.txt'), text);
            const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
            const rd: any = await toolset.callTool('read_file', { path: '/f.txt', hashes: true });
            const anchors = rd.data.content
              .replace(/\n$/, '')
              .split('\n')
              .map((l: string) => l.split('|')[0]);
            const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
            const m = scriptedModel([
              {
                calls: ops.map((o, n) => ({
                  id: `c${n}`,
                  name: 'edit_lines',
                  input: { path: '/f.txt', operations: [toolOp(o, anchors[o.line])], sanity: 'off' },
                })),
              },
              { text: 'done' },
            ]);
            const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
            const r1 = await generateText({
              model: m.model as never,
              tools,
              messages,
              stopWhen: stepCountIs(3),
            });
            messages.push(...r1.response.messages);
            messages.push(await answerApprovals(r1, { toolset, approve: () => ({ approved: true }) }));
            await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
            const after = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
            const ok = [
              `${applyOps(lines, ops).join('\n')}\n`,
              `${applyOps(lines, [ops[0]]).join('\n')}\n`,
              `${applyOps(lines, [ops[1]]).join('\n')}\n`,
              text,
            ].map((t) => (t === '\n' ? '' : t));
            const g = globalThis as any;
            g.__st ??= [0, 0, 0, 0, 0];
            g.__st[ok.indexOf(after) === -1 ? 4 : ok.indexOf(after)]++;
            expect(ok, JSON.stringify({ text, ops, after })).toContain(after);
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        },
      ),
      {
        numRuns: 150,
        // Found by CI: an insertion among equal lines was shown at the end of the run, and the
        // second call's line was rebased through that picture instead of through the edit.
        examples: [[['}', '}', '}', '}', '}'], 0, 1, 'insert_after', 'replace', '}', '']],
      },
    );
    console.log('both / first only / second only / none / other:', (globalThis as any).__st);
  }, 300_000);
});
