import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemToolset, recoverChangeSets, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

// The agent's ordinary (approved-by-policy or staged) tools can write into the journal directory.
// A planted "committed" journal is then rolled forward by recovery: a rename the person never saw.
describe('red-team: planted change-set journal', () => {
  for (const where of ['outside', 'inside'] as const) {
    it(`agent-planted journal is not rolled forward (${where} target)`, async () => {
      const outside = tempDir({ 'victim.txt': 'precious outside\n' });
      const dir = tempDir({ 'victim.txt': 'precious inside\n' });
      const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw' });
      const tools = new FileSystemToolset(sandbox); // no approval configured: a plain rw toolset
      const target = where === 'outside' ? path.join(outside, 'victim.txt') : path.join(dir, 'victim.txt');
      const temp = path.join(dir, 'payload.tmp');
      const w1 = await tools.callTool('write_file', { path: '/payload.tmp', content: 'PWNED\n' });
      const manifest = JSON.stringify({ pid: 999999, entries: [{ target, temp }], dirs: [] });
      const w2 = await tools.callTool('write_file', {
        path: '/.sandbox-approval-changesets/999999-0000000000000000/manifest.json',
        content: manifest,
      });
      const w3 = await tools.callTool('write_file', {
        path: '/.sandbox-approval-changesets/999999-0000000000000000/committed',
        content: '',
      });
      // Best outcome: the writes into the journal directory are refused.
      const planted = w1.ok && w2.ok && w3.ok;
      const report = await recoverChangeSets(sandbox);
      new FileSystemToolset(sandbox); // also recovers
      expect(fs.readFileSync(target, 'utf8'), `planted=${planted} report=${JSON.stringify(report)}`).not.toBe(
        'PWNED\n',
      );
    });
  }

  it('journal directory not reachable by agent tools (list/read/write)', async () => {
    const dir = tempDir({ 'a.txt': 'x' });
    const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const w = await tools.callTool('write_file', {
      path: '/.sandbox-approval-changesets/x.json',
      content: '{}',
    });
    expect(w.ok).toBe(false);
  });
});
