import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

/**
 * docs/tools.md (edit_lines): an anchor "names the one line the read showed, whatever line number comes with
 * it; after the file changed, that line is followed through a diff of the read and the file". After an
 * edit_file or write_file that inserts 3 lines above, an anchor of the earlier read is followed (or refused).
 * After an edit_lines that does the same, the old anchor lands on whatever line now has its number.
 */
describe('an anchor from a read before an edit_lines call, used after it', () => {
  for (const fill of ['x++;', 'same line', '}', '']) {
    for (const first of ['edit_lines', 'edit_file', 'write_file']) {
      it(`${JSON.stringify(fill)} after ${first}: lands on the line read (now 19) or is refused`, async () => {
        const lines = ['head', ...Array.from({ length: 30 }, () => fill), 'tail'];
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-diff-'));
        try {
          fs.writeFileSync(path.join(dir, 'f.txt'), `${lines.join('\n')}\n`);
          const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' })), {
            approve: () => ({ approved: true }),
          });
          const rd: any = await g.callTool('read_file', { path: '/f.txt', hashes: true });
          const an = rd.data.content.split('\n').map((l: string) => l.split('|')[0]);
          let o: any;
          if (first === 'edit_lines')
            o = await g.callTool('edit_lines', {
              path: '/f.txt',
              operations: [{ op: 'insert_after', hash: an[0], content: 'I1\nI2\nI3' }],
              sanity: 'off',
            });
          else if (first === 'edit_file')
            o = await g.callTool('edit_file', {
              path: '/f.txt',
              old_string: 'head\n',
              new_string: 'head\nI1\nI2\nI3\n',
            });
          else
            o = await g.callTool('write_file', {
              path: '/f.txt',
              content: `${['head', 'I1', 'I2', 'I3', ...lines.slice(1)].join('\n')}\n`,
            });
          expect(o.ok).toBe(true);
          // the read showed line 16 (index 15); it is line 19 now
          const o2: any = await g.callTool('edit_lines', {
            path: '/f.txt',
            operations: [{ op: 'replace_line', hash: an[15], content: 'MARK' }],
            sanity: 'off',
          });
          const now = fs.readFileSync(path.join(dir, 'f.txt'), 'utf8').split('\n');
          const landed = o2.ok ? `line ${now.indexOf('MARK') + 1}` : 'refused';
          expect(['line 19', 'refused']).toContain(landed);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      });
    }
  }
});
