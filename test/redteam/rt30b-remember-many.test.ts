// Red team (rt30b): read_many_files names several files (an array). A person approves reading one file and
// remembers it (file / mount scope); the model then asks for that file plus another one the person never
// approved. Promise: a remembered decision never lets a later call run unasked on a file the person did not
// approve (arrays of paths included).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-rm-')));
  for (const d of ['pub', 'secret']) fs.mkdirSync(path.join(root, d));
  fs.writeFileSync(path.join(root, 'pub/a.txt'), 'public\n');
  fs.writeFileSync(path.join(root, 'pub/b.txt'), 'PUBLIC-B-PRIVATE\n');
  fs.writeFileSync(path.join(root, 'secret/s.txt'), 'TOPSECRET\n');
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: path.join(root, 'pub'), mountPoint: '/pub', readApproval: true },
      { hostPath: path.join(root, 'secret'), mountPoint: '/secret', readApproval: true },
    ],
  });
  return { root, sandbox };
}

describe('remembered read of one file does not cover a list that adds others', () => {
  const cases: Array<[string, 'file' | 'mount', string[]]> = [
    ['file', 'file', ['/pub/a.txt', '/secret/s.txt']],
    ['file, other file first', 'file', ['/secret/s.txt', '/pub/a.txt']],
    ['file, same mount other file', 'file', ['/pub/a.txt', '/pub/b.txt']],
    ['mount', 'mount', ['/pub/a.txt', '/secret/s.txt']],
  ];
  for (const [label, scope, second] of cases)
    it(`${label}: approved [/pub/a.txt] remember ${scope}; then ${JSON.stringify(second)}`, async () => {
      const { root, sandbox } = setup();
      const asked: string[] = [];
      const g = new ApprovalToolset(new FileSystemToolset(sandbox), {
        approve: (req) => {
          asked.push(JSON.stringify(req.args));
          return asked.length === 1
            ? { approved: true, remember: { scope } }
            : { approved: false, note: 'no' };
        },
      });
      const first: any = await g.callTool('read_many_files', { paths: ['/pub/a.txt'] }, { toolCallId: 'c1' });
      expect(first.ok).toBe(true);
      const r: any = await g.callTool('read_many_files', { paths: second }, { toolCallId: 'c2' });
      fs.rmSync(root, { recursive: true, force: true });
      const text = JSON.stringify(r);
      expect(/TOPSECRET|PUBLIC-B-PRIVATE/.test(text), `asked ${asked.length}x; ${text.slice(0, 300)}`).toBe(
        false,
      );
    });

  it('read_file remembered for /pub/a.txt (file) does not cover read_many_files of it plus a secret', async () => {
    const { root, sandbox } = setup();
    let n = 0;
    const g = new ApprovalToolset(new FileSystemToolset(sandbox), {
      approve: () =>
        ++n === 1 ? { approved: true, remember: { scope: 'mount' } } : { approved: false, note: 'no' },
    });
    await g.callTool('read_many_files', { paths: ['/pub/a.txt', '/pub/b.txt'] }, { toolCallId: 'c1' });
    const r: any = await g.callTool(
      'read_many_files',
      { paths: ['/pub/a.txt', '/secret/s.txt'] },
      { toolCallId: 'c2' },
    );
    fs.rmSync(root, { recursive: true, force: true });
    expect(JSON.stringify(r).includes('TOPSECRET'), JSON.stringify(r).slice(0, 300)).toBe(false);
  });
});
