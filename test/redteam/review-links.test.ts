import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideAll, FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

// docs/review.md: "Symbolic links cannot be changed in staging mode (the call is refused)."
describe('red-team: staged writes to links', () => {
  it('write_file onto an existing symlink is refused in staging mode', async () => {
    const dir = tempDir({ 't.txt': 'T\n' });
    fs.symlinkSync('t.txt', path.join(dir, 'l.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { staging: true });
    const w = await toolset.callTool('write_file', { path: '/l.txt', content: 'X\n' });
    const staging = toolset.stage();
    const set = staging.changeSet();
    const r = await staging.apply(decideAll(set, 'accept'));
    const after = {
      link: fs.lstatSync(path.join(dir, 'l.txt')).isSymbolicLink(),
      t: fs.readFileSync(path.join(dir, 't.txt'), 'utf8'),
    };
    expect(
      w.ok,
      `write=${JSON.stringify(w).slice(0, 160)} set=${JSON.stringify(set.files.map((f) => [f.path, f.status]))} apply=${r.ok} after=${JSON.stringify(after)}`,
    ).toBe(false);
  });

  it('move_file over an existing symlink is refused in staging mode', async () => {
    const dir = tempDir({ 't.txt': 'T\n', 'a.txt': 'A\n' });
    fs.symlinkSync('t.txt', path.join(dir, 'l.txt'));
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { staging: true });
    const m = await toolset.callTool('move_file', {
      source: '/a.txt',
      destination: '/l.txt',
      overwrite: true,
    });
    expect(m.ok, JSON.stringify(m).slice(0, 200)).toBe(false);
  });
});
