import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { BIN, REPO } from './stdio-client.js';

const HARNESS = path.resolve(import.meta.dirname, 'fixtures/tty-harness.py');
const hasPython = spawnSync('python3', ['-c', 'import pty'], { encoding: 'utf8' }).status === 0;

/**
 * --approve tty for real: the server runs with a pseudo-terminal as its
 * controlling terminal (stdin/stdout stay the MCP pipes), and a harness types
 * the person's answers into the terminal approval UI.
 */
describe.skipIf(!hasPython || process.platform === 'win32')('--approve tty (pseudo-terminal)', () => {
  it('asks on the controlling terminal: y applies the change, n with a note denies it', async () => {
    const dir = tempDir({ 'src/a.ts': 'a\n' });
    const screen = path.join(dir, 'screen.txt');
    const keys = [
      ['[q] quit', 'y'],
      ['[q] quit', 'n'],
      ['> ', 'write it under /src/gen instead\r'],
    ];
    const transport = new StdioClientTransport({
      command: 'python3',
      args: [
        HARNESS,
        JSON.stringify(keys),
        screen,
        process.execPath,
        '--import',
        'tsx',
        BIN,
        'mcp',
        '--mount',
        `${dir}/src:/src:rw`,
        '--approve',
        'tty',
      ],
      cwd: REPO,
      env: { ...(process.env as Record<string, string>), TERM: 'xterm', NO_COLOR: '1' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'tty-test', version: '1' });
    await client.connect(transport);
    try {
      const write = async (file: string) =>
        (await client.callTool({
          name: 'write_file',
          arguments: { path: file, content: 'new\n' },
        })) as CallToolResult;
      const approved = await write('/src/one.ts');
      expect(approved.isError).toBeFalsy();
      expect(fs.readFileSync(path.join(dir, 'src/one.ts'), 'utf8')).toBe('new\n');
      const denied = await write('/src/two.ts');
      expect((denied.structuredContent as { error: { code: string } }).error.code).toBe('approval_denied');
      expect((denied.content[0] as { text: string }).text).toContain('write it under /src/gen instead');
      expect(fs.existsSync(path.join(dir, 'src/two.ts'))).toBe(false);
      expect(fs.readFileSync(screen, 'utf8')).toContain('/src/one.ts');
    } finally {
      await client.close();
    }
  });
});
