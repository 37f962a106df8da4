import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { narrowToRoots } from '../../src/mcp/roots.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { WRITING_TOOLS } from '../../src/tools/dry-run.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

const snapshot = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((p) => {
      const full = path.join(dir, p);
      return fs.statSync(full).isFile() ? `${p}:${fs.readFileSync(full, 'utf8')}` : `${p}/`;
    });

const ARGS: Record<string, Record<string, unknown>> = {
  write_file: { path: '/a.txt', content: 'new\n' },
  edit_file: { path: '/a.txt', old_string: 'one', new_string: 'uno' },
  delete_file: { path: '/a.txt' },
  move_file: { source: '/a.txt', destination: '/b.txt' },
  copy_file: { source: '/a.txt', destination: '/c.txt' },
  create_directory: { path: '/d/e' },
  read_file: { path: '/a.txt' },
  list_files: { path: '/' },
  get_file_info: { path: '/a.txt' },
};

describe('arguments, for every tool and any extra key', () => {
  it('an unknown argument is refused by name (invalid_argument) and nothing changes', async () => {
    const dir = tempDir({ 'a.txt': 'one\ntwo\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    const before = snapshot(dir);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(ARGS)),
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.jsonValue(),
        async (name, key, value) => {
          const schema = toolset.getTool(name)!.inputSchema as unknown as { shape: Record<string, unknown> };
          const known = Object.keys(schema.shape);
          fc.pre(!known.includes(key) && key !== '__proto__');
          const r = await toolset.callTool(name, { ...ARGS[name], [key]: value });
          expect(r.ok).toBe(false);
          if (r.ok) return;
          expect(r.error.code).toBe('invalid_argument');
          expect(r.error.message).toContain(JSON.stringify(key));
          expect(snapshot(dir)).toEqual(before);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('dryRun on any writing tool with any content changes nothing and needs no approval', async () => {
    const dir = tempDir({ 'a.txt': 'one\ntwo\n' });
    const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
    const before = snapshot(dir);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...[...WRITING_TOOLS].filter((n) => n in ARGS)),
        fc.string({ maxLength: 200 }),
        async (name, content) => {
          const args = { ...ARGS[name], ...(name === 'write_file' ? { content } : {}), dryRun: true };
          expect((await toolset.needsApproval(name, args)).status).toBe('pre_approved');
          const r = await toolset.callTool(name, args);
          expect(r.ok, JSON.stringify(r)).toBe(true);
          const data = (r as { data: { dry_run: boolean; payload?: { content?: string } } }).data;
          expect(data.dry_run).toBe(true);
          if (name === 'write_file') expect(data.payload?.content).toBe(content);
          expect(snapshot(dir)).toEqual(before);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('roots narrow, never widen', () => {
  it('whatever the roots, the narrowed sandbox reads and writes only what the mounts allow, inside a root', () => {
    const dir = tempDir({ 'a/x/1.txt': '1', 'a/y/2.txt': '2', 'b/z/3.txt': '3', 'c/4.txt': '4' });
    const sandbox = new Sandbox({
      mounts: [
        { hostPath: path.join(dir, 'a'), mountPoint: '/a', mode: 'rw' },
        { hostPath: path.join(dir, 'b'), mountPoint: '/b', mode: 'ro' },
      ],
    });
    const hostDirs = ['', 'a', 'a/x', 'a/y', 'b', 'b/z', 'c'].map((d) => fs.realpathSync(path.join(dir, d)));
    const virtuals = ['/a', '/a/x', '/a/x/1.txt', '/a/y/2.txt', '/b', '/b/z/3.txt', '/c', '/c/4.txt'];
    const hostOf = (v: string) => path.join(fs.realpathSync(dir), v);
    fc.assert(
      fc.property(fc.subarray(hostDirs), (roots) => {
        const narrowed = narrowToRoots(
          sandbox,
          roots.map((r) => ({ uri: pathToFileURL(r).href })),
        );
        for (const v of virtuals) {
          const inRoot = roots.some((r) => hostOf(v) === r || hostOf(v).startsWith(`${r}/`));
          expect(narrowed.canRead(v)).toBe(sandbox.canRead(v) && inRoot);
          expect(narrowed.canWrite(v)).toBe(sandbox.canWrite(v) && inRoot);
        }
      }),
      { numRuns: 128 },
    );
  });
});
