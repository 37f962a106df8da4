import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';
import { err, ok } from './fixture.js';

describe('list_files in a derived sandbox', () => {
  it('lists the granted parts from "/" and from a partly granted directory, nothing else', async () => {
    const dir = tempDir({ 'src/util/a.ts': 'a', 'src/b.ts': 'b', 'docs/c.md': 'c', 'top.txt': 't' });
    const child = Sandbox.fromDirectory(dir).derive({ allowRead: ['/src/util', '/docs'] });
    const toolset = new FileSystemToolset(child);
    expect(ok(await toolset.callTool('list_files', {})).entries).toEqual([
      '/docs/',
      '/docs/c.md',
      '/src/util/',
      '/src/util/a.ts',
    ]);
    expect(ok(await toolset.callTool('list_files', { path: '/src' })).entries).toEqual([
      '/src/util/',
      '/src/util/a.ts',
    ]);
    expect(ok(await toolset.callTool('list_files', { path: '/src', pattern: '**/*.md' })).entries).toEqual(
      [],
    );
    const refused = err(await toolset.callTool('list_files', { path: '/elsewhere' }));
    expect(refused.code).toBe('path_not_in_sandbox');
  });

  it('suggests readable roots, not the mount they live in', async () => {
    const dir = tempDir({ 'src/util/a.ts': 'a' });
    const sandbox = new Sandbox({ mounts: [{ hostPath: dir, mountPoint: '/src' }] });
    const toolset = new FileSystemToolset(sandbox.derive({ allowRead: ['/src/util'] }));
    const refused = err(await toolset.callTool('read_file', { path: '/src/b.ts' }));
    expect(refused.code).toBe('path_not_in_sandbox');
    expect(refused.suggestions).toEqual(['/src/util']);
  });
});

describe('FileSystemToolset options', () => {
  it('refuses unknown tool names up front, naming the built-in ones', () => {
    const sandbox = Sandbox.fromDirectory(tempDir());
    expect(() => new FileSystemToolset(sandbox, { tools: ['read_file', 'rm_rf' as never] })).toThrow(
      /Unknown tool name in options.tools: rm_rf\. Built-in tools: read_file, write_file/,
    );
    const only = new FileSystemToolset(sandbox, { tools: ['read_file'] });
    expect(only.listTools().map((t) => t.name)).toEqual(['read_file']);
  });
});
