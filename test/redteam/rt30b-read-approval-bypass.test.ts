// Red team (rt30b): a person denies reading a file on a readApproval mount; the model copies it (or gets its
// info / lists / moves it) to a mount that asks nothing, then reads the copy. Promise: what is denied never
// runs — the secret's content never reaches the model without a person approving a read of it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

function setup(secretMode: 'ro' | 'rw') {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-rab-')));
  fs.mkdirSync(path.join(root, 'secret'));
  fs.mkdirSync(path.join(root, 'work'));
  fs.writeFileSync(path.join(root, 'secret/s.txt'), 'TOPSECRET\n');
  const sandbox = new Sandbox({
    mounts: [
      {
        hostPath: path.join(root, 'secret'),
        mountPoint: '/secret',
        mode: secretMode,
        readApproval: true,
        writeApproval: false,
      },
      { hostPath: path.join(root, 'work'), mountPoint: '/work', mode: 'rw', writeApproval: false },
    ],
  });
  const asked: string[] = [];
  const g = new ApprovalToolset(new FileSystemToolset(sandbox), {
    approve: (req) => {
      asked.push(req.toolName);
      return { approved: false, note: 'no reading secrets' };
    },
  });
  return { root, g, asked };
}

describe('readApproval cannot be sidestepped', () => {
  for (const tool of ['copy_file', 'move_file'] as const)
    for (const secretMode of ['ro', 'rw'] as const)
      it(`${tool} from a ${secretMode} readApproval mount to a mount that asks nothing, then read the copy`, async () => {
        const { root, g, asked } = setup(secretMode);
        const denied: any = await g.callTool('read_file', { path: '/secret/s.txt' }, { toolCallId: 'r1' });
        expect(denied.ok).toBe(false);
        const c: any = await g.callTool(
          tool,
          { source: '/secret/s.txt', destination: '/work/s.txt' },
          { toolCallId: 'c1' },
        );
        const r: any = await g.callTool('read_file', { path: '/work/s.txt' }, { toolCallId: 'r2' });
        fs.rmSync(root, { recursive: true, force: true });
        expect(
          JSON.stringify(r).includes('TOPSECRET'),
          `copy: ${JSON.stringify(c).slice(0, 200)} asked: ${asked}`,
        ).toBe(false);
      });
});

describe('errors never carry a readApproval file’s content to the model unasked', () => {
  const probes: Array<[string, string, any]> = [
    [
      'edit_file with a near-miss old_string (closest region)',
      'edit_file',
      { path: '/secret/s.txt', old_string: 'TOPSECRXT', new_string: 'x' },
    ],
    [
      'write_file with a wrong base_sha256 (latest_file_state)',
      'write_file',
      { path: '/secret/s.txt', content: 'x\n', base_sha256: '0'.repeat(64) },
    ],
    [
      'patch_file with a wrong base (latest_file_state)',
      'patch_file',
      {
        path: '/secret/s.txt',
        base_sha256: '0'.repeat(64),
        unified_diff: '--- a\n+++ b\n@@ -1 +1 @@\n-nope\n+x\n',
      },
    ],
    [
      'patch_file with a hunk that does not apply',
      'patch_file',
      {
        path: '/secret/s.txt',
        base_sha256: 'f'.repeat(64),
        unified_diff: '--- a\n+++ b\n@@ -1 +1 @@\n-TOPSECRXT\n+x\n',
      },
    ],
    [
      'edit_lines with a bogus anchor',
      'edit_lines',
      { path: '/secret/s.txt', operations: [{ op: 'replace_line', hash: '1#abcdef', content: 'x' }] },
    ],
    [
      'edit_file with an ambiguous old_string',
      'edit_file',
      { path: '/secret/s.txt', old_string: 'E', new_string: 'x' },
    ],
  ];
  for (const writeApproval of [true, false])
    for (const [label, tool, args] of probes)
      it(`${label} (writeApproval ${writeApproval})`, async () => {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-rae-')));
        fs.writeFileSync(path.join(root, 's.txt'), 'TOPSECRET\nline two\nTOPSECRET2\n');
        const sandbox = new Sandbox({
          mounts: [{ hostPath: root, mountPoint: '/secret', mode: 'rw', readApproval: true, writeApproval }],
        });
        const g = new ApprovalToolset(new FileSystemToolset(sandbox), {
          approve: () => ({ approved: false, note: 'no' }),
        });
        const denied: any = await g.callTool('read_file', { path: '/secret/s.txt' }, { toolCallId: 'r1' });
        expect(denied.ok).toBe(false);
        const r: any = await g.callTool(tool, args, { toolCallId: 'p1' });
        fs.rmSync(root, { recursive: true, force: true });
        const text = JSON.stringify(r);
        expect(/TOPSECRET|line two/.test(text), text.slice(0, 400)).toBe(false);
      });
});
