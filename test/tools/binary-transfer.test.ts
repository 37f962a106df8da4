import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { err, ok, project } from './fixture.js';

// Not UTF-8 text: NUL bytes and an invalid sequence.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0xff, 0xfe, 0x80]);
const bytes = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel));

describe('binary files through copy, move, delete and undo', () => {
  it('copies and moves them byte for byte, and overwrites only when asked', async () => {
    const { dir, toolset } = project({ 'img/logo.png': PNG, 'other.png': Buffer.from([1, 0, 2]) });
    ok(await toolset.callTool('copy_file', { source: '/img/logo.png', destination: '/copy/logo.png' }));
    expect(bytes(dir, 'copy/logo.png').equals(PNG)).toBe(true);
    expect(
      err(await toolset.callTool('move_file', { source: '/copy/logo.png', destination: '/other.png' })).code,
    ).toBe('invalid_argument');
    const moved = ok(
      await toolset.callTool('move_file', {
        source: '/copy/logo.png',
        destination: '/other.png',
        overwrite: true,
      }),
    );
    expect(moved).toMatchObject({ destination: '/other.png', bytes: PNG.length, overwritten: true });
    expect(bytes(dir, 'other.png').equals(PNG)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'copy/logo.png'))).toBe(false);
    // Text tools still refuse them.
    expect(err(await toolset.callTool('read_file', { path: '/other.png' })).code).toBe('binary_file');
  });

  it('deletes them with a payload that does not print the bytes, and undo restores them exactly', async () => {
    const { dir, toolset } = project({ 'logo.png': PNG });
    const approval = await toolset.needsApproval('delete_file', { path: '/logo.png' });
    expect(approval.status).toBe('needs_approval');
    if (approval.status !== 'needs_approval') return;
    expect(approval.payload).toMatchObject({
      type: 'delete',
      fileBytes: PNG.length,
      fileLines: 0,
      preview: `(binary file, ${PNG.length} bytes: not shown)`,
    });
    ok(await toolset.callTool('delete_file', { path: '/logo.png' }));
    expect(fs.existsSync(path.join(dir, 'logo.png'))).toBe(false);
    ok(await toolset.undo());
    expect(bytes(dir, 'logo.png').equals(PNG)).toBe(true);
  });

  it('undo of a binary overwrite by copy puts the old bytes back', async () => {
    const old = Buffer.from([0, 1, 2, 3, 0xff]);
    const { dir, toolset } = project({ 'a.bin': PNG, 'b.bin': old });
    ok(await toolset.callTool('copy_file', { source: '/a.bin', destination: '/b.bin', overwrite: true }));
    expect(bytes(dir, 'b.bin').equals(PNG)).toBe(true);
    ok(await toolset.undo());
    expect(bytes(dir, 'b.bin').equals(old)).toBe(true);
  });
});
