// Red team (rt30a): calls that CREATE one file, named by different spellings (a.txt, /./a.txt, a link to
// its directory, a dangling link to it) at the same time. docs/approval.md: calls on the same file, "resolved
// to the real file inside the sandbox, so a.txt, /./a.txt, /a.txt and a symlink to it are one file", go through
// check → approve → execute one after another, "so each payload is computed on the file as the previous call
// left it". For a file that does not exist yet, the approval lock is keyed by the spelling: every call is
// shown "create", and all but one then fail stale_approval (or, across processes, the same).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { nodeScript } from '../helpers/node-script.js';

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-create-')));
  fs.mkdirSync(path.join(root, 'd'));
  fs.symlinkSync('d', path.join(root, 'dl'));
  fs.symlinkSync('d/new.txt', path.join(root, 'dangling'));
  return root;
}

const SPELLINGS = ['/d/new.txt', 'd/new.txt', '/d/./new.txt', '/d//new.txt', '/dl/new.txt', '/dangling'];

describe('creating one file by several spellings at once', () => {
  it('in one process: one call is shown the create, the others the file it left; none stale', async () => {
    const root = setup();
    const shown: string[] = [];
    const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
      approve: async (req) => {
        const p = req.payload as { fileExists?: boolean };
        shown.push(`${(req.args as { path: string }).path}:${p.fileExists ? 'overwrite' : 'create'}`);
        await new Promise((r) => setTimeout(r, 20));
        return { approved: true };
      },
    });
    const outs: any[] = await Promise.all(
      SPELLINGS.map((p, i) =>
        g.callTool('write_file', { path: p, content: `${i}\n` }, { toolCallId: `c${i}` }),
      ),
    );
    fs.rmSync(root, { recursive: true, force: true });
    const codes = outs.map((o, i) => `${SPELLINGS[i]}:${o.ok ? 'ok' : o.error.code}`);
    expect(codes).toEqual(SPELLINGS.map((p) => `${p}:ok`));
    expect(shown.filter((s) => s.endsWith(':create')).length).toBe(1);
  });

  it('across processes (a barrier, 6 spellings, 10 rounds): one create per file, nobody stale', async () => {
    const root = setup();
    for (let k = 0; k < 10; k++) fs.symlinkSync(`d/new-${k}.txt`, path.join(root, `dangling-${k}`));
    const worker = path.join(root, 'worker.mts');
    fs.writeFileSync(
      worker,
      `import { ApprovalToolset, FileSystemToolset, Sandbox } from ${JSON.stringify(path.resolve(__dirname, '../../src/index.ts'))};
const [root, spelling, t0] = process.argv.slice(2);
const creates = [];
const codes = [];
const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
  approve: async (req) => {
    if (!req.payload.fileExists) creates.push(req.toolCallId);
    await new Promise((r) => setTimeout(r, 30));
    return { approved: true };
  },
});
for (let k = 0; k < 10; k++) {
  const at = Number(t0) + k * 300;
  await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));
  const p = spelling === '/dangling' ? '/dangling-' + k : spelling.replace('new.txt', 'new-' + k + '.txt');
  const out = await g.callTool('write_file', { path: p, content: spelling + '\\n' }, { toolCallId: 'k' + k });
  if (!out.ok) codes.push(k + ':' + out.error.code);
}
process.stdout.write(JSON.stringify({ creates, codes }));`,
    );
    const t0 = Date.now() + 5000;
    const results = await Promise.all(
      SPELLINGS.map(
        (s) =>
          new Promise<any>((resolve) => {
            const c = spawn(process.execPath, [nodeScript(worker), root, s, String(t0)], {
              cwd: path.resolve(__dirname, '../..'),
              stdio: ['ignore', 'pipe', 'pipe'],
            });
            let out = '';
            let err = '';
            c.stdout.on('data', (d) => {
              out += d;
            });
            c.stderr.on('data', (d) => {
              err += d;
            });
            c.on('close', () => {
              try {
                resolve({ spelling: s, ...JSON.parse(out) });
              } catch {
                resolve({ spelling: s, creates: [], codes: [`no result ${err}`] });
              }
            });
          }),
      ),
    );
    fs.rmSync(root, { recursive: true, force: true });
    const creates = results.flatMap((r) => r.creates as string[]).sort();
    const codes = results.flatMap((r) => (r.codes as string[]).map((c) => `${r.spelling} ${c}`));
    expect({ codes, creates }).toEqual({
      codes: [],
      creates: Array.from({ length: 10 }, (_, k) => `k${k}`).sort(),
    });
  }, 120_000);
});
