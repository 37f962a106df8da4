import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { lineHash } from '../../src/edit/line-hash.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';
import { err } from '../tools/fixture.js';

/**
 * Whatever the approved file becomes while the person is asked — a FIFO, a socket,
 * a directory, a link to a directory, a dangling link, a binary file, a file too big
 * to load — the approved write is refused as stale_approval (not as the model's
 * mistake), and what was put there is left exactly as it was.
 */
const servers: net.Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

type Kind =
  | 'removed'
  | 'fifo'
  | 'socket'
  | 'directory'
  | 'link to directory'
  | 'dangling link'
  | 'binary'
  | 'too large';
const KINDS: Kind[] = [
  'fifo',
  'socket',
  'directory',
  'link to directory',
  'dangling link',
  'binary',
  'too large',
];

/** Replaces `file` by an entry of the given kind (its own inode); returns how to recognise it afterwards. */
async function become(dir: string, file: string, kind: Kind): Promise<() => boolean> {
  fs.rmSync(file);
  switch (kind) {
    case 'removed':
      return () => !fs.existsSync(file);
    case 'fifo':
      execFileSync('mkfifo', [file]);
      return () => fs.lstatSync(file).isFIFO();
    case 'socket': {
      const server = net.createServer();
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(file, resolve));
      return () => fs.lstatSync(file).isSocket();
    }
    case 'directory':
      fs.mkdirSync(file);
      return () => fs.lstatSync(file).isDirectory() && fs.readdirSync(file).length === 0;
    case 'link to directory':
      fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
      fs.symlinkSync('sub', file);
      return () => fs.readlinkSync(file) === 'sub' && fs.readdirSync(path.join(dir, 'sub')).length === 0;
    case 'dangling link':
      fs.symlinkSync('nowhere', file);
      return () => fs.readlinkSync(file) === 'nowhere' && !fs.existsSync(path.join(dir, 'nowhere'));
    case 'binary':
      fs.writeFileSync(file, Buffer.from([0, 1, 2, 0, 255]));
      return () => fs.readFileSync(file).equals(Buffer.from([0, 1, 2, 0, 255]));
    case 'too large':
      fs.writeFileSync(file, 'x'.repeat(5_000));
      return () => fs.readFileSync(file, 'utf8') === 'x'.repeat(5_000);
  }
}

const CALLS = [
  { name: 'write_file', args: { path: '/x.txt', content: 'new\n' } },
  { name: 'edit_file', args: { path: '/x.txt', old_string: 'old', new_string: 'NEW' } },
  {
    name: 'edit_lines',
    args: {
      path: '/x.txt',
      operations: [{ op: 'insert_after', hash: `1#${lineHash('old')}`, content: 'more' }],
    },
  },
  {
    name: 'patch_file',
    args: {
      path: '/x.txt',
      unified_diff: '@@ -1 +1 @@\n-old\n+NEW\n',
      base_sha256: createHash('sha256').update('old\n').digest('hex'),
    },
  },
  { name: 'delete_file', args: { path: '/x.txt' } },
  { name: 'copy_file', args: { source: '/x.txt', destination: '/y.txt' } },
  { name: 'move_file', args: { source: '/x.txt', destination: '/y.txt' } },
  { name: 'read_file', args: { path: '/x.txt' } },
] as const;

describe('the approved file replaced by something of another kind during the prompt', () => {
  it('is refused as stale_approval, and what was put there is untouched', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KINDS), fc.constantFrom(...CALLS), async (kind, call) => {
        const dir = tempDir({ 'x.txt': 'old\n' });
        const file = path.join(dir, 'x.txt');
        // Reads are asked too, so an approved read is checked the same way.
        const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw', maxFileBytes: 1_000, readApproval: true });
        const toolset = new FileSystemToolset(sandbox);
        let intact: () => boolean = () => false;
        const gated = new ApprovalToolset(toolset, {
          approve: async () => {
            intact = await become(dir, file, kind);
            return { approved: true };
          },
        });
        const e = err(await gated.callTool(call.name, call.args));
        expect(`${kind} ${call.name}: ${e.code}`).toBe(`${kind} ${call.name}: stale_approval`);
        expect(e.message).toContain('/x.txt');
        expect(e.message).not.toContain(dir);
        expect(intact()).toBe(true);
        // Nothing else appeared (no copy, no moved file, no temp file left).
        expect(fs.readdirSync(dir).filter((n) => n !== 'sub' && n !== 'x.txt')).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});
