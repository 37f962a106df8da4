import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../../src/contract/tool-outcome.js';
import { isTempFileName } from '../../src/fs/atomic-write.js';
import { openDirectoryInside } from '../../src/fs/dir-handle.js';
import { isStaleTempFile, STALE_AFTER_MS, sweepStaleTempFiles } from '../../src/fs/stale-temp-files.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function plant(dir: string, name: string, ageMs: number, kind: 'file' | 'dir' = 'file'): string {
  const full = path.join(dir, name);
  if (kind === 'dir') fs.mkdirSync(full);
  else fs.writeFileSync(full, 'partial');
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(full, when, when);
  return name;
}

const hex = 'abcdef012345';

describe('stale atomic-write temp files', () => {
  it('are recognised by their exact pattern only', () => {
    expect(isTempFileName(`.a.txt.sandbox-approval-123-${hex}.tmp`)).toBe(true);
    expect(isTempFileName(`.a.txt.sandbox-approval-${hex}.tmp`)).toBe(true); // older names, no pid
    expect(isTempFileName('.notes.sandbox-approval-draft.tmp')).toBe(false);
    expect(isTempFileName(`a.txt.sandbox-approval-${hex}.tmp`)).toBe(false);
    expect(isStaleTempFile('.notes.tmp', 0)).toBe(false);
  });

  it('the next write in the directory removes those of dead writers and very old ones, nothing else', async () => {
    const dir = fs.realpathSync(tempDir({ 'a.txt': 'old' }));
    const outside = tempDir({ 'victim.txt': 'keep me' });
    const dead = deadPid();
    const removable = [
      plant(dir, `.a.txt.sandbox-approval-${dead}-${hex}.tmp`, 60_000),
      plant(dir, `.a.txt.sandbox-approval-${hex}.tmp`, STALE_AFTER_MS + 60_000),
      plant(dir, `.b.txt.sandbox-approval-${process.pid}-${hex}.tmp`, STALE_AFTER_MS + 60_000),
    ];
    const kept = [
      plant(dir, `.c.txt.sandbox-approval-${dead}-${hex}.tmp`, 1_000), // writer gone, but too fresh to judge
      plant(dir, `.d.txt.sandbox-approval-${process.pid}-${hex}.tmp`, 60_000), // ours, maybe in flight
      plant(dir, `.e.txt.sandbox-approval-${hex}.tmp`, 60_000), // no pid: only age decides
      plant(dir, '.notes.tmp', STALE_AFTER_MS + 60_000), // a user's file
      plant(dir, `.f.sandbox-approval-${dead}-${hex}.tmp`, STALE_AFTER_MS + 60_000, 'dir'),
    ];
    const link = `.g.sandbox-approval-${dead}-${hex}.tmp`;
    fs.symlinkSync(path.join(outside, 'victim.txt'), path.join(dir, link));
    kept.push(link);

    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const outcome: ToolOutcome = await toolset.callTool('write_file', { path: '/a.txt', content: 'new' });
    expect(outcome.ok).toBe(true);

    const left = fs.readdirSync(dir).sort();
    expect(left).toEqual(['a.txt', ...kept].sort());
    for (const name of removable) expect(left).not.toContain(name);
    expect(fs.readFileSync(path.join(outside, 'victim.txt'), 'utf8')).toBe('keep me');
  });

  it('sweeps a directory at most once a minute unless forced', async () => {
    const dir = fs.realpathSync(tempDir());
    const handle = await openDirectoryInside(dir, dir, { create: false, displayPath: '/' });
    try {
      expect(await sweepStaleTempFiles(handle)).toEqual([]);
      const name = plant(dir, `.x.sandbox-approval-${deadPid()}-${hex}.tmp`, 60_000);
      expect(await sweepStaleTempFiles(handle)).toEqual([]);
      expect(await sweepStaleTempFiles(handle, { force: true })).toEqual([name]);
    } finally {
      await handle.close();
    }
  });

  it('list_files does not show temp files', async () => {
    const dir = tempDir({ 'a.txt': 'a' });
    plant(dir, `.a.txt.sandbox-approval-${process.pid}-${hex}.tmp`, 0);
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir));
    const outcome = await toolset.callTool('list_files', {});
    expect(outcome.ok && outcome.data).toMatchObject({ entries: ['/a.txt'], count: 1 });
  });
});
