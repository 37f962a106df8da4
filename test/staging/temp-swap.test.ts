import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideAll } from '../../src/staging/decisions.js';
import { recoverChangeSets } from '../../src/staging/recover.js';
import { tempDir } from '../helpers/temp-project.js';
import { ok } from '../tools/fixture.js';
import { stagedProject } from './fixture.js';

// A change set is applied through temp files beside their targets, renamed in after the
// commit point. Another process with write access to the directory can rename an entry
// of its own over a temp name (here a link to a file outside the mount, planted from the
// test hook at exact steps): it must never be moved in as one of the set's files.

const tempOf = (dir: string, name: string) =>
  fs.readdirSync(dir).find((n) => n.startsWith(`.${name}.sandbox-approval-apply-`) && n.endsWith('.tmp'))!;

function plant(dir: string, name: string, outside: string): void {
  const planted = path.join(dir, '.planted');
  fs.symlinkSync(outside, planted);
  fs.renameSync(planted, path.join(dir, tempOf(dir, name)));
}

async function setUp() {
  const project = stagedProject({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const outside = path.join(tempDir({ 'secret.txt': 'SECRET\n' }), 'secret.txt');
  ok(await project.toolset.callTool('write_file', { path: '/a.txt', content: 'A\n' }));
  ok(await project.toolset.callTool('write_file', { path: '/b.txt', content: 'B\n' }));
  return { ...project, outside };
}

describe('applying a change set while another process swaps a temp file', () => {
  it('before the commit point: nothing is applied and the other entry is left alone', async () => {
    const { dir, staging, outside } = await setUp();
    const result = await staging.apply(decideAll(staging.changeSet(), 'accept'), {
      hook: (step) => {
        if (step === 'temp:1') plant(dir, 'a.txt', outside);
      },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('io_error');
      expect(result.error.message).toMatch(
        /another process replaced the temporary file.*nothing was applied/i,
      );
      expect(result.error.message).not.toContain(dir);
    }
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    expect(fs.lstatSync(path.join(dir, 'a.txt')).isFile()).toBe(true);
    expect(fs.readFileSync(outside, 'utf8')).toBe('SECRET\n');
    // Our own temp of b.txt is gone; the planted link is the other process's and stays.
    const left = fs.readdirSync(dir).filter((n) => n.includes('.sandbox-approval-apply-'));
    expect(left.map((n) => fs.lstatSync(path.join(dir, n)).isSymbolicLink())).toEqual([true]);
  });

  it('after the commit point: the swapped file keeps what was there, the rest is applied, and it is reported', async () => {
    const { dir, staging, outside } = await setUp();
    await expect(
      staging.apply(decideAll(staging.changeSet(), 'accept'), {
        hook: (step) => {
          if (step === 'committed') plant(dir, 'a.txt', outside);
        },
      }),
    ).rejects.toThrow(/another process replaced the temporary file/i);
    expect(fs.lstatSync(path.join(dir, 'a.txt')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('B\n');
  });

  it('recovery after a crash past the commit point moves in only the temp files the apply wrote', async () => {
    const { dir, staging, sandbox, outside } = await setUp();
    class Stop extends Error {}
    // Stopped right after the commit point, as a crash would stop it (the journal stays).
    await staging
      .apply(decideAll(staging.changeSet(), 'accept'), {
        hook: (step) => {
          if (step === 'committed') {
            plant(dir, 'a.txt', outside);
            throw new Stop(step);
          }
        },
      })
      .catch(() => undefined);
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    const base = path.join(dir, '.sandbox-approval-changesets');
    for (const name of fs.readdirSync(base))
      fs.renameSync(path.join(base, name), path.join(base, name.replace(/^\d+-/, `${2 ** 22 + 4321}-`)));
    await recoverChangeSets(sandbox);
    expect(fs.lstatSync(path.join(dir, 'a.txt')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(fs.readFileSync(path.join(dir, 'b.txt'), 'utf8')).toBe('B\n');
    expect(fs.readFileSync(outside, 'utf8')).toBe('SECRET\n');
  });
});
