// Red team (rt30b): concurrent approved edits of one file by many spellings — blocking Promise.all through one
// ApprovalToolset, two ApprovalToolsets over the same directory (one mounting a subdirectory, so the same file
// has another virtual path), and native mode with all decisions taken first (every payload on the same state)
// then executed in parallel. Promise: no update lost, no stale_approval when nothing else changed the file
// (native: edits far apart are rebased), creates by several spellings give exactly one create.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decidePending, executeApproved } from '../../src/approval/native-ledger.js';
import { ApprovalToolset, approveAll, FileSystemToolset, Sandbox } from '../../src/index.js';

const N = 40;
const body = () => Array.from({ length: N }, (_, i) => `line ${i} = 0`).join('\n') + '\n';

function setup() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-cc-')));
  fs.mkdirSync(path.join(root, 'd'));
  fs.writeFileSync(path.join(root, 'd/a.txt'), body());
  fs.symlinkSync('d', path.join(root, 'ld'));
  fs.symlinkSync('a.txt', path.join(root, 'd/la.txt'));
  fs.symlinkSync('d/la.txt', path.join(root, 'lla.txt'));
  return root;
}
const SPELLINGS = [
  '/d/a.txt',
  'd/a.txt',
  '/./d/a.txt',
  '//d//a.txt',
  '/ld/a.txt',
  '/d/la.txt',
  '/lla.txt',
  '/d/../d/a.txt',
  '/ld/../d/la.txt',
  'd/./a.txt/',
];

describe('concurrent edits by spellings', () => {
  it('blocking: one ApprovalToolset, Promise.all, 10 spellings x 4 rounds', async () => {
    for (let round = 0; round < 4; round++) {
      const root = setup();
      const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
        approve: async () => {
          await new Promise((r) => setTimeout(r, Math.random() * 5));
          return { approved: true };
        },
      });
      const out: any[] = await Promise.all(
        SPELLINGS.map((p, i) =>
          g.callTool(
            'edit_file',
            { path: p, old_string: `line ${i * 4} = 0`, new_string: `line ${i * 4} = 1` },
            { toolCallId: `c${i}` },
          ),
        ),
      );
      const text = fs.readFileSync(path.join(root, 'd/a.txt'), 'utf8');
      const links = [
        fs.lstatSync(path.join(root, 'd/la.txt')).isSymbolicLink(),
        fs.lstatSync(path.join(root, 'ld')).isSymbolicLink(),
      ];
      fs.rmSync(root, { recursive: true, force: true });
      const codes = out.map((o, i) => `${SPELLINGS[i]}:${o.ok ? 'ok' : o.error.code}`);
      expect(
        codes.filter((c) => !c.endsWith(':ok')),
        JSON.stringify(out.find((o) => !o.ok)),
      ).toEqual([]);
      for (let i = 0; i < SPELLINGS.length; i++) expect(text).toContain(`line ${i * 4} = 1`);
      expect(links).toEqual([true, true]);
    }
  });

  it('blocking: two ApprovalToolsets, one mounting the subdirectory (other virtual path), Promise.all', async () => {
    for (let round = 0; round < 4; round++) {
      const root = setup();
      const slow = async () => {
        await new Promise((r) => setTimeout(r, Math.random() * 5));
        return { approved: true } as const;
      };
      const g1 = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
        approve: slow,
      });
      const g2 = new ApprovalToolset(
        new FileSystemToolset(Sandbox.fromDirectory(path.join(root, 'd'), { mode: 'rw' })),
        { approve: slow },
      );
      const calls = Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? g2 : g1).callTool(
          'edit_file',
          {
            path: i % 2 ? '/a.txt' : '/d/a.txt',
            old_string: `line ${i * 4} = 0`,
            new_string: `line ${i * 4} = 1`,
          },
          { toolCallId: `c${i}` },
        ),
      );
      const out: any[] = await Promise.all(calls);
      const text = fs.readFileSync(path.join(root, 'd/a.txt'), 'utf8');
      fs.rmSync(root, { recursive: true, force: true });
      // No update lost: every call reported ok is on disk; any refusal must be stale (never silent loss).
      for (let i = 0; i < 10; i++) {
        const o = out[i];
        if (o.ok) expect(text, `call ${i} reported ok but lost`).toContain(`line ${i * 4} = 1`);
        else expect(o.error.code).toBe('stale_approval');
      }
    }
  });

  it('native: all decided on the same state, then executed in parallel by 10 spellings (far-apart edits rebase)', async () => {
    for (let round = 0; round < 3; round++) {
      const root = setup();
      const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }));
      const inputs = SPELLINGS.map((p, i) => ({
        path: p,
        old_string: `line ${i * 4} = 0`,
        new_string: `line ${i * 4} = 1`,
      }));
      for (const [i, input] of inputs.entries())
        expect(
          (await decidePending(ts, approveAll(), { toolName: 'edit_file', toolCallId: `n${i}`, input }))
            .approved,
        ).toBe(true);
      const out: any[] = await Promise.all(
        inputs.map((input, i) => executeApproved(ts, 'edit_file', input, `n${i}`)),
      );
      const text = fs.readFileSync(path.join(root, 'd/a.txt'), 'utf8');
      fs.rmSync(root, { recursive: true, force: true });
      const codes = out.map((o, i) => `${SPELLINGS[i]}:${o.ok ? 'ok' : o.error.code}`);
      expect(codes.filter((c) => !c.endsWith(':ok'))).toEqual([]);
      for (let i = 0; i < SPELLINGS.length; i++) expect(text).toContain(`line ${i * 4} = 1`);
    }
  });

  it('creates of one new file by 8 spellings (incl. a dangling link to it), blocking Promise.all: exactly one create', async () => {
    for (let round = 0; round < 5; round++) {
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-cr-')));
      fs.mkdirSync(path.join(root, 'd'));
      fs.symlinkSync('d', path.join(root, 'ld'));
      fs.symlinkSync('n.txt', path.join(root, 'd/dangling.txt'));
      fs.symlinkSync('d/n.txt', path.join(root, 'top-dangling.txt'));
      const sp = [
        '/d/n.txt',
        'd/n.txt',
        '//d/n.txt',
        '/ld/n.txt',
        '/d/dangling.txt',
        '/top-dangling.txt',
        '/ld/../d/n.txt',
        '/./ld/./n.txt',
      ];
      const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
        approve: approveAll(),
      });
      const out: any[] = await Promise.all(
        sp.map((p, i) =>
          g.callTool(
            'write_file',
            {
              path: p,
              content: `v${i}\n`,
              base_sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
            },
            { toolCallId: `w${i}` },
          ),
        ),
      );
      const text = fs.readFileSync(path.join(root, 'd/n.txt'), 'utf8');
      const links = [
        fs.lstatSync(path.join(root, 'd/dangling.txt')).isSymbolicLink(),
        fs.lstatSync(path.join(root, 'top-dangling.txt')).isSymbolicLink(),
      ];
      fs.rmSync(root, { recursive: true, force: true });
      const okIdx = out.map((o, i) => (o.ok ? i : -1)).filter((i) => i >= 0);
      expect(okIdx.length, JSON.stringify(out.map((o) => (o.ok ? o.data.created : o.error.code)))).toBe(1);
      expect(out[okIdx[0]!].data.created).toBe(true);
      expect(text).toBe(`v${okIdx[0]}\n`);
      expect(links).toEqual([true, true]);
      for (const o of out) if (!o.ok) expect(['state_mismatch', 'stale_approval']).toContain(o.error.code);
    }
  });
});

describe('creates across toolsets', () => {
  it('three ApprovalToolsets (one over the subdirectory) create one new file by spellings at once: exactly one create, no update lost', async () => {
    for (let round = 0; round < 8; round++) {
      const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30b-ct-')));
      fs.mkdirSync(path.join(root, 'd'));
      fs.symlinkSync('d', path.join(root, 'ld'));
      fs.symlinkSync('n.txt', path.join(root, 'd/dl.txt'));
      const slow = async () => {
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        return { approved: true } as const;
      };
      const gs = [
        new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
          approve: slow,
        }),
        new ApprovalToolset(
          new FileSystemToolset(Sandbox.fromDirectory(path.join(root, 'd'), { mode: 'rw' })),
          { approve: slow },
        ),
        new ApprovalToolset(
          new FileSystemToolset(Sandbox.fromDirectory(path.join(root, 'ld'), { mode: 'rw' })),
          { approve: slow },
        ),
      ];
      const plan: Array<[number, string]> = [
        [0, '/d/n.txt'],
        [1, '/n.txt'],
        [2, '/dl.txt'],
        [0, '/ld/n.txt'],
        [1, '/dl.txt'],
        [2, '/n.txt'],
      ];
      const out: any[] = await Promise.all(
        plan.map(([gi, p], i) =>
          gs[gi]!.callTool('write_file', { path: p, content: `v${i}\n` }, { toolCallId: `w${i}` }),
        ),
      );
      const text = fs.readFileSync(path.join(root, 'd/n.txt'), 'utf8');
      const link = fs.lstatSync(path.join(root, 'd/dl.txt')).isSymbolicLink();
      fs.rmSync(root, { recursive: true, force: true });
      const created = out.filter((o) => o.ok && o.data.created).length;
      expect(
        created,
        JSON.stringify(out.map((o) => (o.ok ? `created=${o.data.created}` : o.error.code))),
      ).toBe(1);
      expect(link).toBe(true);
      // The last successful write is what is on disk (no write reported ok and then lost).
      const oks = out.map((o, i) => (o.ok ? i : -1)).filter((i) => i >= 0);
      expect(oks.map((i) => `v${i}\n`)).toContain(text);
    }
  });
});
