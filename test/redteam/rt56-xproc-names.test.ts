// Red team rt56, Promise C (atomic writes): the temp name `.<name>.sandbox-approval-<pid>-<hex>.tmp`
// cuts <name> at 100 UTF-16 units, not at a byte budget: a legal multi-byte file name (≤ 255 bytes)
// gives a temp name over 255 bytes, so the file can never be written or edited.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmp, toolsetOn } from './rt56-helpers.js';

describe('rt56 C: temp names of long multi-byte file names', () => {
  it('edit_file on an existing 220-byte CJK name (72 × 文 + .txt) succeeds', async () => {
    const name = `${'文'.repeat(72)}.txt`;
    expect(Buffer.byteLength(name)).toBe(220); // a legal name (NAME_MAX 255)
    const dir = tmp({ [name]: 'hello\n' });
    const r: any = await toolsetOn(dir).callTool('edit_file', {
      path: `/${name}`,
      old_string: 'hello',
      new_string: 'bye',
    });
    expect(r.ok ? 'ok' : `${r.error.code}: ${r.error.message.slice(-40)}`).toBe('ok'); // actual: io_error … (ENAMETOOLONG)
    expect(fs.readFileSync(path.join(dir, name), 'utf8')).toBe('bye\n');
  });

  it('write_file creating a 229-byte CJK name succeeds', async () => {
    const name = `${'文'.repeat(75)}.txt`;
    const dir = tmp();
    const r: any = await toolsetOn(dir).callTool('write_file', { path: `/${name}`, content: 'x\n' });
    expect(r.ok ? 'ok' : r.error.code).toBe('ok'); // actual: io_error (ENAMETOOLONG)
  });
});
