import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { read } from '../helpers/temp-project.js';
import { err, ok, project } from './fixture.js';

/** A project with AGENTS.md and CLAUDE.md → AGENTS.md (relative link), plus a link that leaves the sandbox. */
function linked() {
  const p = project({ 'AGENTS.md': 'rules\n', 'docs/keep.md': 'k\n' });
  fs.symlinkSync('AGENTS.md', path.join(p.dir, 'CLAUDE.md'));
  fs.symlinkSync(os.tmpdir(), path.join(p.dir, 'out.md'));
  const shown: ApprovalPayload[] = [];
  const gated = new ApprovalToolset(p.toolset, {
    approve: (r) => {
      shown.push(r.payload);
      return { approved: true };
    },
  });
  const isLink = (rel: string) => fs.lstatSync(path.join(p.dir, rel)).isSymbolicLink();
  return { ...p, gated, shown, isLink };
}

describe('delete, move and copy act on a symbolic link itself (case 4)', () => {
  it('delete_file removes the link, keeps the file it points to, says so in the payload; undo restores the link', async () => {
    const s = linked();
    ok(await s.gated.callTool('delete_file', { path: '/CLAUDE.md' }));
    expect(s.shown[0]).toMatchObject({
      type: 'delete',
      path: '/CLAUDE.md',
      symlink: { target: '/AGENTS.md' },
    });
    expect(s.shown[0]!.description).toContain('symbolic link');
    expect(fs.existsSync(path.join(s.dir, 'CLAUDE.md'))).toBe(false);
    expect(read(s.dir, 'AGENTS.md')).toBe('rules\n');
    ok(await s.gated.undo());
    expect(s.isLink('CLAUDE.md')).toBe(true);
    expect(read(s.dir, 'CLAUDE.md')).toBe('rules\n');
  });

  it('a link that points outside the sandbox can be deleted; the payload says where it points, never the host path', async () => {
    const s = linked();
    ok(await s.gated.callTool('delete_file', { path: '/out.md' }));
    expect(s.shown[0]).toMatchObject({ symlink: { target: 'outside the sandbox' } });
    expect(JSON.stringify(s.shown)).not.toContain(os.tmpdir());
    expect(fs.existsSync(os.tmpdir())).toBe(true);
  });

  it('move_file moves the link (as mv does); the file it points to stays where it is', async () => {
    const s = linked();
    const data = ok(await s.gated.callTool('move_file', { source: '/CLAUDE.md', destination: '/NOTES.md' }));
    expect(data).toMatchObject({ symlink: true, source: '/CLAUDE.md', destination: '/NOTES.md' });
    expect(s.shown[0]).toMatchObject({
      type: 'move',
      symlink: { target: '/AGENTS.md', targetAfter: '/AGENTS.md' },
    });
    expect(s.isLink('NOTES.md')).toBe(true);
    expect(fs.existsSync(path.join(s.dir, 'CLAUDE.md'))).toBe(false);
    expect(read(s.dir, 'AGENTS.md')).toBe('rules\n');
    // A relative link moved to another directory points elsewhere: the payload says where.
    ok(await s.gated.callTool('move_file', { source: '/NOTES.md', destination: '/docs/NOTES.md' }));
    expect(s.shown[1]).toMatchObject({ symlink: { target: '/AGENTS.md', targetAfter: '/docs/AGENTS.md' } });
    expect(read(s.dir, 'AGENTS.md')).toBe('rules\n');
    // Undo puts the links back, one move at a time.
    ok(await s.gated.undo());
    ok(await s.gated.undo());
    expect(s.isLink('CLAUDE.md')).toBe(true);
    expect(read(s.dir, 'CLAUDE.md')).toBe('rules\n');
    expect(fs.existsSync(path.join(s.dir, 'NOTES.md'))).toBe(false);
  });

  it('copy_file copies the link as a link (cp -P), never the content behind it', async () => {
    const s = linked();
    ok(await s.gated.callTool('copy_file', { source: '/CLAUDE.md', destination: '/COPY.md' }));
    expect(s.shown[0]).toMatchObject({ type: 'copy', symlink: { target: '/AGENTS.md' } });
    expect(s.isLink('COPY.md')).toBe(true);
    expect(s.isLink('CLAUDE.md')).toBe(true);
    // A link out of the sandbox is not copied: that would plant a second way out.
    const out = err(await s.gated.callTool('copy_file', { source: '/out.md', destination: '/out2.md' }));
    expect(out.code).toBe('approval_blocked');
    expect(out.message).toContain('would point outside the sandbox');
    expect(() => fs.lstatSync(path.join(s.dir, 'out2.md'))).toThrow();
    expect(s.shown).toHaveLength(1);
    // Undo removes the copy; an overwritten file comes back.
    ok(await s.gated.undo());
    expect(fs.existsSync(path.join(s.dir, 'COPY.md'))).toBe(false);
    expect(s.isLink('out.md')).toBe(true);
    ok(
      await s.gated.callTool('copy_file', {
        source: '/CLAUDE.md',
        destination: '/docs/keep.md',
        overwrite: true,
      }),
    );
    expect(s.isLink('docs/keep.md')).toBe(true);
    ok(await s.gated.undo());
    expect(s.isLink('docs/keep.md')).toBe(false);
    expect(read(s.dir, 'docs/keep.md')).toBe('k\n');
  });

  it('a link cannot be moved over the file it points to; a link that changed after approval is stale', async () => {
    const s = linked();
    const e = err(
      await s.gated.callTool('move_file', {
        source: '/CLAUDE.md',
        destination: '/AGENTS.md',
        overwrite: true,
      }),
    );
    expect(e.code).toBe('invalid_argument');
    expect(read(s.dir, 'AGENTS.md')).toBe('rules\n');
    const racing = new ApprovalToolset(s.toolset, {
      approve: () => {
        fs.unlinkSync(path.join(s.dir, 'CLAUDE.md'));
        fs.symlinkSync('docs/keep.md', path.join(s.dir, 'CLAUDE.md'));
        return { approved: true };
      },
    });
    expect(err(await racing.callTool('delete_file', { path: '/CLAUDE.md' })).code).toBe('stale_approval');
    expect(s.isLink('CLAUDE.md')).toBe(true);
  });
});
