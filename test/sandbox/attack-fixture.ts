import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { tempDir } from '../helpers/temp-project.js';

/**
 * A root with an allowed directory (mounted rw at /data), a second mount (/other,
 * read-only), a look-alike sibling `allowed_evil` and an `outside` canary, plus
 * every kind of link an attacker would plant inside the mount.
 */
export function attackFixture() {
  const root = fs.realpathSync(
    tempDir(
      {
        'allowed/a.txt': 'inside a\n',
        'allowed/keep.txt': 'untouched by earlier cases\n',
        'allowed/sub/b.txt': 'inside b\n',
        'allowed_evil/secret.txt': 'EVIL SIBLING SECRET\n',
        'outside/secret.txt': 'OUTSIDE SECRET\n',
        'other/o.txt': 'other mount\n',
      },
      { keep: true },
    ),
  );
  const allowed = path.join(root, 'allowed');
  const outside = path.join(root, 'outside');
  const link = (target: string, name: string) => fs.symlinkSync(target, path.join(allowed, name));
  link(path.join(outside, 'secret.txt'), 'link_file_out');
  link(outside, 'link_dir_out');
  link('../outside/created.txt', 'dangling_out');
  link('../outside/newdir/created.txt', 'dangling_deep_out');
  link('chain2', 'chain1');
  link('chain3', 'chain2');
  link(path.join(outside, 'secret.txt'), 'chain3');
  link('loop_b', 'loop_a');
  link('loop_a', 'loop_b');
  link('self', 'self');
  link('../allowed_evil', 'link_evil');
  link('/dev/zero', 'devzero');
  link('a.txt', 'link_inside');
  link('sub', 'link_sub_inside');
  link('../allowed/../outside', 'link_back_out');
  execFileSync('mkfifo', [path.join(allowed, 'fifo')]);
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: allowed, mountPoint: '/data', mode: 'rw' },
      { hostPath: path.join(root, 'other'), mountPoint: '/other' },
    ],
  });
  return { root, allowed, outside, sandbox };
}

/** Everything outside the mounts, with contents and types, to prove an attack changed nothing. */
export function outsideSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const top of ['outside', 'allowed_evil']) {
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        const stat = fs.lstatSync(full);
        out[path.relative(root, full)] = e.isDirectory()
          ? 'dir'
          : `${stat.size}:${stat.mtimeMs}:${e.isFile() ? fs.readFileSync(full, 'utf8') : e.isSymbolicLink() ? 'link' : 'other'}`;
        if (e.isDirectory()) walk(full);
      }
    };
    walk(path.join(root, top));
  }
  for (const name of fs.readdirSync(root)) out[`root:${name}`] = 'entry';
  return out;
}
