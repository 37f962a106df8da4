import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import { DeferredApprovals } from '../../src/approval/deferred/deferred-approvals.js';
import { JsonFileDeferredStore } from '../../src/approval/deferred/json-file-store.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { snapshot, tempDir } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

const P = (dir: string, rel: string) => path.join(dir, rel);
/** The parts a web client would send back (no longer an authority: the store is). */
type UIHistory = unknown[];
type Call = { id: string; name: string; input: Record<string, unknown> };

/** Request 1 asks with `first`; `between(dir)` runs; request 2 (fresh toolset) executes with `second(history)`. */
async function round(
  files: Record<string, string>,
  call: Call,
  first: DeferredApprovals,
  between: (dir: string) => void,
  second: (history: UIHistory) => DeferredApprovals,
  prep?: (dir: string) => void,
) {
  const p = project(files);
  prep?.(p.dir);
  const m = scriptedModel([{ calls: [call] }, { text: 'done' }]);
  const toolsFor = (deferred: DeferredApprovals) =>
    aiSdkTools(new FileSystemToolset(p.sandbox), { approval: { mode: 'native', deferred } });
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const r1 = await generateText({
    model: m.model as never,
    tools: toolsFor(first),
    messages,
    stopWhen: stepCountIs(3),
  });
  const req = r1.content.find((c) => c.type === 'tool-approval-request')!;
  const record = await first.shown(call.id);
  const history: UIHistory = record
    ? [
        {
          parts: [
            {
              type: 'data-sandbox-approval',
              data: { toolCallId: call.id, payload: record.payload, toolName: record.toolName },
            } as never,
          ],
        },
      ]
    : [];
  between(p.dir);
  const after = snapshot(p.dir);
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
  return { seen: m.seenToolResults(), after, now: snapshot(p.dir), dir: p.dir };
}

const swapParent = (d: string) => {
  fs.renameSync(P(d, 'd'), P(d, 'x'));
  fs.cpSync(P(d, 'x'), P(d, 'd'), { recursive: true });
};
const sameBytes = (d: string) => {
  fs.writeFileSync(P(d, 'd/a.tmp'), fs.readFileSync(P(d, 'd/a.txt')));
  fs.renameSync(P(d, 'd/a.tmp'), P(d, 'd/a.txt'));
};
const hardlinkVictim = (d: string) => {
  fs.rmSync(P(d, 'd/a.txt'));
  fs.linkSync(P(d, 'victim.txt'), P(d, 'd/a.txt'));
};
const FILES = { 'd/a.txt': 'old\n', 'victim.txt': 'old\n' };
const WRITE: Call = { id: 'c1', name: 'write_file', input: { path: '/d/a.txt', content: 'new\n' } };
const CREATE: Call = { id: 'c1', name: 'write_file', input: { path: '/d/new.txt', content: 'new\n' } };
const DELETE: Call = { id: 'c1', name: 'delete_file', input: { path: '/d/a.txt' } };

describe('deferred approvals (store record): swaps between request 1 and request 2', () => {
  for (const [name, call, swap] of [
    ['write, parent swapped', WRITE, swapParent],
    ['write, same-bytes file', WRITE, sameBytes],
    ['write, hard link to a victim', WRITE, hardlinkVictim],
    ['create, parent swapped', CREATE, swapParent],
    ['delete, same-bytes file', DELETE, sameBytes],
  ] as const) {
    it(name, async () => {
      const store = new JsonFileDeferredStore(path.join(tempDir(), 'store'));
      const r = await round(
        FILES,
        call,
        new DeferredApprovals({ store, secret: 's' }),
        swap,
        () => new DeferredApprovals({ store, secret: 's' }),
      );
      expect(r.now).toEqual(r.after);
      expect(r.seen).toContain('stale_approval');
    });
  }
});

// The store is the only authority: a second request whose store does not hold the
// record (a fresh in-memory one) is refused whatever the client's history says.
describe('deferred approvals, no store record: blocked whatever changed between the requests', () => {
  for (const [name, call, swap] of [
    ['write, parent swapped for an equal copy', WRITE, swapParent],
    ['write, same-bytes file (new inode)', WRITE, sameBytes],
    ['write, hard link to a victim swapped in', WRITE, hardlinkVictim],
    ['create, parent swapped', CREATE, swapParent],
    ['delete, same-bytes file', DELETE, sameBytes],
  ] as const) {
    it(name, async () => {
      const r = await round(FILES, call, new DeferredApprovals(), swap, () => new DeferredApprovals());
      expect(r.now).toEqual(r.after);
      expect(r.seen).toContain('approval_blocked');
    });
  }
  it('dir link re-pointed to an equal dir', async () => {
    const r = await round(
      { 'd1/a.txt': 'old\n', 'd2/a.txt': 'old\n' },
      { id: 'c1', name: 'write_file', input: { path: '/ln/a.txt', content: 'new\n' } },
      new DeferredApprovals(),
      (d) => {
        fs.rmSync(P(d, 'ln'));
        fs.symlinkSync('d2', P(d, 'ln'));
      },
      () => new DeferredApprovals(),
      (d) => fs.symlinkSync('d1', P(d, 'ln')),
    );
    expect(r.now).toEqual(r.after);
    expect(r.seen).toContain('approval_blocked');
  });
});

describe('JsonFileDeferredStore tampering', () => {
  it('with a secret: a record file edited (arguments) is refused', async () => {
    const storeDir = path.join(tempDir(), 'store');
    const store = new JsonFileDeferredStore(storeDir);
    const r = await round(
      FILES,
      WRITE,
      new DeferredApprovals({ store, secret: 's' }),
      () => {
        for (const f of fs.readdirSync(storeDir)) {
          const full = P(storeDir, f);
          if (!fs.statSync(full).isFile()) continue;
          fs.writeFileSync(
            full,
            fs.readFileSync(full, 'utf8').replaceAll('new\\\\n', 'EVIL\\\\n').replaceAll('new\\n', 'EVIL\\n'),
          );
        }
      },
      () => new DeferredApprovals({ store, secret: 's' }),
    );
    expect(fs.readFileSync(P(r.dir, 'd/a.txt'), 'utf8')).toBe('old\n');
  });
});

describe('sanity of the harness', () => {
  it('store record: a content change between requests is stale_approval', async () => {
    const store = new JsonFileDeferredStore(path.join(tempDir(), 'store'));
    const r = await round(
      FILES,
      WRITE,
      new DeferredApprovals({ store, secret: 's' }),
      (d) => fs.writeFileSync(P(d, 'd/a.txt'), 'mine\n'),
      () => new DeferredApprovals({ store, secret: 's' }),
    );
    expect(r.seen).toContain('stale_approval');
    expect(r.now).toEqual(r.after);
  });
  it('one in-memory DeferredApprovals kept across requests: same-bytes swap', async () => {
    const deferred = new DeferredApprovals();
    const r = await round(FILES, WRITE, deferred, sameBytes, () => deferred);
    console.log(r.seen);
    expect(r.now).toEqual(r.after);
  });
});
