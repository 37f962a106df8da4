// Red team rt56, Promise C ("a file's mode is kept"): a chmod made by another process while an
// edit is being written is reverted by that edit's rename (the mode is taken before the temp
// file is written, not checked again before the rename).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmp, toolsetOn } from './rt56-helpers.js';

describe('rt56 C: a concurrent chmod survives edits', () => {
  it('mode set by another process mid-stream of edits is the mode afterwards', async () => {
    let lost = 0;
    const trials = 8;
    for (let t = 0; t < trials; t++) {
      const big = `${'filler line for a big file\n'.repeat(200_000)}counter 0\n`;
      const dir = tmp({ 'f.txt': big });
      const file = path.join(dir, 'f.txt');
      fs.chmodSync(file, 0o644);
      const ts = toolsetOn(dir);
      let stop = false;
      let n = 0;
      const loop = (async () => {
        while (!stop) {
          const r: any = await ts.callTool('edit_file', {
            path: '/f.txt',
            old_string: `counter ${n}`,
            new_string: `counter ${n + 1}`,
          });
          if (!r.ok) throw new Error(r.error.message);
          n++;
        }
      })();
      await new Promise<void>((resolve) => {
        const c = spawn('sh', ['-c', `sleep 0.${2 + t}; chmod 700 '${file}'`]);
        c.on('close', () => resolve());
      });
      const at = n;
      while (n < at + 3) await new Promise((r) => setTimeout(r, 5)); // three more edits after the chmod
      stop = true;
      await loop;
      if ((fs.statSync(file).mode & 0o7777) !== 0o700) lost++;
    }
    expect(lost).toBe(0);
  }, 240_000);
});
