// Red team (rt30a): a deferred approval is claimed "once, in any process" (JsonFileDeferredStore: the
// check and the tombstone run under the cross-process lock of the record's key). The lock is keyed by the
// store directory as spelled (path.resolve, no realpath): two servers whose store option names the same
// directory through a symlink (or a bind-mounted/relative spelling) claim the same record at the same time,
// and both get `bound`: one approval runs twice.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { DeferredApprovals, JsonFileDeferredStore } from '../../src/index.js';

const payload: ApprovalPayload = {
  type: 'write',
  description: 'Create /a.txt',
  path: '/a.txt',
  mount: '/',
  baseSha256: null,
  content: 'x\n',
  contentLines: 1,
  contentBytes: 2,
  preview: 'x\n',
  previewTruncated: false,
  fileExists: false,
  existingLines: 0,
  existingBytes: 0,
};

describe('deferred claim through two spellings of the store directory', () => {
  it('30 calls, each claimed at once through 4 spellings: exactly one claim is bound per call', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-deferred-')));
    const real = path.join(base, 'store');
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync('store', path.join(base, 'link'));
    const spellings = [real, path.join(base, 'link'), `${real}/.`, path.join(base, 'link', '..', 'store')];
    const views = spellings.map((d) =>
      new DeferredApprovals({ store: new JsonFileDeferredStore(d), secret: 'k' }).forConversation('chat'),
    );
    const counts: number[] = [];
    for (let i = 0; i < 30; i++) {
      const id = `call-${i}`;
      await views[0]!.ask({
        toolName: 'write_file',
        toolCallId: id,
        input: { path: '/a.txt', content: 'x\n' },
        payload,
      });
      const claims = await Promise.all(views.map((v) => v.claim(id)));
      counts.push(claims.filter((c) => c.status === 'bound').length);
    }
    fs.rmSync(base, { recursive: true, force: true });
    expect(counts).toEqual(counts.map(() => 1));
  }, 60_000);
});
