// File descriptors are never leaked by thousands of failing and succeeding calls (small files and files around
// the 1 MiB sync/async boundary; FIFO, socket, device, directory at the path, a path under a file, binary, too
// large, stale bases, stale approvals), error codes are stable, messages carry no host path, no temp files are
// left, and a failed call never disturbs another call running in parallel (a descriptor closed twice would
// close a later call's file).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const MiB = 1048576;
const fdCount = () => fs.readdirSync('/proc/self/fd').length;

async function setup() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-fdio-leak-'));
  const dir = path.join(root, 'm');
  fs.mkdirSync(dir);
  const P = (r: string) => path.join(dir, r);
  fs.mkdirSync(P('adir'));
  execFileSync('mkfifo', [P('fifo.txt')]);
  execFileSync('python3', [
    '-c',
    `import os,stat;os.mknod(${JSON.stringify(P('dev.txt'))},stat.S_IFCHR|0o666,os.makedev(1,3))`,
  ]);
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(P('sock.txt'), () => r()));
  fs.writeFileSync(P('bin-big.txt'), Buffer.concat([Buffer.alloc(MiB + 5, 0x61), Buffer.from([0])]));
  fs.writeFileSync(
    P('bad-utf8-big.txt'),
    Buffer.concat([Buffer.alloc(MiB - 1, 0x61), Buffer.from([0xc3, 0x28])]),
  );
  fs.writeFileSync(P('split-utf8.txt'), Buffer.concat([Buffer.alloc(MiB - 1, 0x61), Buffer.from('é\n')])); // 2-byte char across 1 MiB
  fs.writeFileSync(P('huge.txt'), Buffer.alloc(2 * MiB + 3, 0x62));
  fs.writeFileSync(P('small.txt'), 'hello\n');
  fs.writeFileSync(P('big.txt'), `${'x'.repeat(MiB)}\nEND\n`);
  fs.writeFileSync(P('file.txt'), 'a file\n');
  fs.writeFileSync(P('empty.txt'), '');
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
    limits: { maxFileBytes: 2 * MiB, readMaxChars: 5 * MiB, readMaxLines: 100000 },
  });
  let mutate: (() => void) | undefined;
  const gated = new ApprovalToolset(ts, {
    approve: () => {
      mutate?.();
      mutate = undefined;
      return { approved: true };
    },
  });
  return {
    root,
    dir,
    P,
    ts,
    gated,
    setMutate: (f: () => void) => {
      mutate = f;
    },
    done: () => {
      server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

describe('descriptors, codes and temp files over thousands of calls', () => {
  it('failing calls leak no descriptor and answer the same code every time', async () => {
    const t = await setup();
    const failing: [string, string, any][] = [
      ['read dir', 'read_file', { path: '/adir' }],
      ['read fifo', 'read_file', { path: '/fifo.txt' }],
      ['read dev', 'read_file', { path: '/dev.txt' }],
      ['read sock', 'read_file', { path: '/sock.txt' }],
      ['read under file', 'read_file', { path: '/file.txt/x.txt' }],
      ['read bin big', 'read_file', { path: '/bin-big.txt' }],
      ['read bad utf8 big', 'read_file', { path: '/bad-utf8-big.txt' }],
      ['read huge', 'read_file', { path: '/huge.txt' }],
      ['edit big not found', 'edit_file', { path: '/big.txt', old_string: 'nope', new_string: 'x' }],
      ['edit fifo', 'edit_file', { path: '/fifo.txt', old_string: 'a', new_string: 'b' }],
      ['edit dev', 'edit_file', { path: '/dev.txt', old_string: 'a', new_string: 'b' }],
      ['edit bin big', 'edit_file', { path: '/bin-big.txt', old_string: 'a', new_string: 'b' }],
      ['write dir', 'write_file', { path: '/adir', content: 'x' }],
      ['write fifo', 'write_file', { path: '/fifo.txt', content: 'x' }],
      ['write sock', 'write_file', { path: '/sock.txt', content: 'x' }],
      ['write dev', 'write_file', { path: '/dev.txt', content: 'x' }],
      ['write under file', 'write_file', { path: '/file.txt/x.txt', content: 'x' }],
      ['write stale base big', 'write_file', { path: '/big.txt', content: 'x', base_sha256: 'a'.repeat(64) }],
      ['write too large', 'write_file', { path: '/new.txt', content: 'z'.repeat(2 * MiB + 1) }],
      [
        'patch big stale',
        'patch_file',
        { path: '/big.txt', unified_diff: '@@ -1 +1 @@\n-END\n+E\n', base_sha256: 'b'.repeat(64) },
      ],
      [
        'lines stale',
        'edit_lines',
        { path: '/big.txt', operations: [{ op: 'replace_line', hash: '2#abcdef', content: 'q' }] },
      ],
      ['copy fifo', 'copy_file', { source: '/fifo.txt', destination: '/c.txt' }],
      ['copy dev', 'copy_file', { source: '/dev.txt', destination: '/c.txt' }],
      ['copy onto dir', 'copy_file', { source: '/small.txt', destination: '/adir', overwrite: true }],
      ['copy big onto fifo', 'copy_file', { source: '/big.txt', destination: '/fifo.txt', overwrite: true }],
      ['move under file', 'move_file', { source: '/small.txt', destination: '/file.txt/y.txt' }],
      ['delete dir', 'delete_file', { path: '/adir' }],
      ['delete missing', 'delete_file', { path: '/missing.txt' }],
      ['mkdir over file', 'create_directory', { path: '/file.txt' }],
      ['info under file', 'get_file_info', { path: '/file.txt/z' }],
      ['read many', 'read_many_files', { paths: ['/fifo.txt', '/dev.txt', '/bin-big.txt', '/adir'] }],
    ];
    try {
      // warm-up: lazily opened things (lock sockets, salt file) are opened once
      for (const [, name, args] of failing) await t.ts.callTool(name, args);
      await t.ts.callTool('write_file', { path: '/small.txt', content: 'hello\n' });
      const before = fdCount();
      const codes = new Map<string, Set<string>>();
      const leaks: string[] = [];
      for (let round = 0; round < 60; round++) {
        for (const [label, name, args] of failing) {
          const out: any = await t.ts.callTool(name, args);
          const code = out.ok ? 'OK' : out.error.code;
          if (!codes.has(label)) codes.set(label, new Set());
          codes.get(label)!.add(code);
          const text = JSON.stringify(out);
          if (text.includes(t.root)) leaks.push(`${label}: host path in ${text.slice(0, 200)}`);
        }
        // a succeeding call after the failures sees its own file
        const w: any = await t.ts.callTool('write_file', { path: '/small.txt', content: `r${round}\n` });
        expect(w.ok).toBe(true);
        expect(fs.readFileSync(t.P('small.txt'), 'utf8')).toBe(`r${round}\n`);
      }
      const after = fdCount();
      const unstable = [...codes].filter(([, s]) => s.size !== 1).map(([l, s]) => `${l}: ${[...s]}`);
      const oks = [...codes].filter(([, s]) => s.has('OK') && !['read many'].includes('')).map(([l]) => l);
      console.log(Object.fromEntries([...codes].map(([l, s]) => [l, [...s].join(',')])));
      expect(unstable).toEqual([]);
      expect(leaks).toEqual([]);
      expect(oks.filter((l) => l !== 'read many')).toEqual([]);
      expect(after).toBeLessThanOrEqual(before);
      const temps = fs.readdirSync(t.dir).filter((n) => n.includes('sandbox-approval'));
      expect(temps).toEqual([]);
    } finally {
      t.done();
    }
  }, 120_000);

  it('succeeding and stale-approval calls on files around 1 MiB leak nothing and leave no temp file', async () => {
    const t = await setup();
    try {
      const sizes = [0, 1, MiB - 1, MiB, MiB + 1];
      const warm = await t.gated.callTool('write_file', { path: '/w.txt', content: 'w' });
      expect(warm.ok).toBe(true);
      const before = fdCount();
      const bad: string[] = [];
      for (let i = 0; i < 200; i++) {
        const size = sizes[i % sizes.length]!;
        const content = 'y'.repeat(size);
        fs.writeFileSync(t.P('w.txt'), content);
        fs.chmodSync(t.P('w.txt'), 0o600);
        // stale approval: the file is replaced by a same-bytes copy during the prompt
        t.setMutate(() => {
          fs.writeFileSync(t.P('w.copy'), content);
          fs.chmodSync(t.P('w.copy'), 0o600);
          fs.renameSync(t.P('w.copy'), t.P('w.txt'));
        });
        const s: any = await t.gated.callTool('write_file', { path: '/w.txt', content: `${content}!` });
        if (s.ok || s.error.code !== 'stale_approval')
          bad.push(`#${i} size ${size}: same-bytes rename-over gave ${s.ok ? 'ok' : s.error.code}`);
        if (fs.readFileSync(t.P('w.txt'), 'utf8') !== content)
          bad.push(`#${i} size ${size}: stale call changed the file`);
        const ok: any = await t.gated.callTool('write_file', { path: '/w.txt', content: `${content}?` });
        if (!ok.ok) bad.push(`#${i} size ${size}: write failed ${ok.error.code}`);
        const st = fs.statSync(t.P('w.txt'));
        if ((st.mode & 0o777) !== 0o600)
          bad.push(`#${i} size ${size}: mode ${(st.mode & 0o777).toString(8)}`);
        if (fs.readFileSync(t.P('w.txt'), 'utf8') !== `${content}?`)
          bad.push(`#${i} size ${size}: wrong content`);
        const r: any = await t.ts.callTool('read_file', { path: '/w.txt' });
        if (!r.ok) bad.push(`#${i} size ${size}: read failed ${r.error.code}`);
        const e: any = await t.gated.callTool('edit_file', {
          path: '/w.txt',
          old_string: '?',
          new_string: '.',
        });
        if (!e.ok) bad.push(`#${i} size ${size}: edit failed ${e.error.code}`);
        else if (fs.readFileSync(t.P('w.txt'), 'utf8') !== `${content}.`)
          bad.push(`#${i} size ${size}: edit wrong content`);
      }
      const after = fdCount();
      expect(bad.slice(0, 20)).toEqual([]);
      expect(after).toBeLessThanOrEqual(before);
      expect(fs.readdirSync(t.dir).filter((n) => n.includes('sandbox-approval'))).toEqual([]);
    } finally {
      t.done();
    }
  }, 180_000);

  it('failing calls in parallel with succeeding ones never disturb their files', async () => {
    const t = await setup();
    try {
      for (let k = 0; k < 8; k++)
        fs.writeFileSync(t.P(`p${k}.txt`), `start ${k}\n${k % 2 ? 'q'.repeat(MiB) : ''}`);
      const before = fdCount();
      const bad: string[] = [];
      for (let round = 0; round < 25; round++) {
        const calls: Promise<any>[] = [];
        const expectOk: [number, string][] = [];
        for (let k = 0; k < 8; k++) {
          const content = `round ${round} file ${k}\n${k % 2 ? 'q'.repeat(MiB + round) : 'small'}`;
          expectOk.push([k, content]);
          calls.push(t.ts.callTool('write_file', { path: `/p${k}.txt`, content }));
          calls.push(t.ts.callTool('read_file', { path: '/bin-big.txt' }));
          calls.push(t.ts.callTool('write_file', { path: '/fifo.txt', content: 'x' }));
          calls.push(t.ts.callTool('edit_file', { path: '/big.txt', old_string: 'nope', new_string: 'x' }));
          calls.push(t.ts.callTool('read_file', { path: '/huge.txt' }));
          calls.push(t.ts.callTool('copy_file', { source: '/dev.txt', destination: `/c${k}.txt` }));
        }
        const outs = await Promise.all(calls);
        for (let k = 0; k < 8; k++) {
          const o = outs[k * 6];
          if (!o.ok) bad.push(`round ${round} p${k}: ${o.error.code} ${o.error.message}`);
          const got = fs.readFileSync(t.P(`p${k}.txt`), 'utf8');
          if (got !== expectOk[k]![1]) bad.push(`round ${round} p${k}: content wrong`);
        }
        for (const [idx, o] of outs.entries())
          if (idx % 6 !== 0 && o.ok) bad.push(`round ${round} call ${idx} succeeded`);
      }
      expect(bad.slice(0, 20)).toEqual([]);
      expect(fdCount()).toBeLessThanOrEqual(before);
      expect(fs.readdirSync(t.dir).filter((n) => n.includes('sandbox-approval'))).toEqual([]);
    } finally {
      t.done();
    }
  }, 180_000);
});
