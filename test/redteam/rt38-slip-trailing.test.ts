// rt38 (observation, outside the two promises): a part-of-line edit_file hit that ends where the line's
// trailing blanks begin is treated as a "whitespace slip" and rewritten line-wise, dropping those blanks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('rt38: a hit before trailing blanks', () => {
  it("replacing a word in the middle of a line keeps the line's trailing tabs", async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt38-sl-')));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'f.txt'), 'h\n\t\t<OLD>\t\t\nt\n');
    const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    const r: any = await ts.callTool('edit_file', {
      path: '/f.txt',
      old_string: '<OLD>',
      new_string: '<NEWER>',
    });
    expect(r.ok).toBe(true);
    // got "h\n\t\t<NEWER>\nt\n", match_level "indentation": the old_string starts after the indentation and
    // ends before the trailing blanks (neither inside them), yet the trailing "\t\t" is deleted
    expect(fs.readFileSync(path.join(dir, 'f.txt'), 'utf8')).toBe('h\n\t\t<NEWER>\t\t\nt\n');
  });
});
