// Worker for rt31-kill.test.ts: argv root. Rewrites /f.txt forever with edit_file (fuzzy) and write_file, each
// version a full 4 MB file made of one repeated marker line, and prints the marker it is writing.
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const [root] = process.argv.slice(2) as [string];
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
const body = (k: number) => `${`v${k} line of text  \r\n`.repeat(200_000)}end ${k}  \r\n`;
for (let k = 1; ; k++) {
  process.stdout.write(`W${k}\n`);
  if (k % 2) await ts.callTool('write_file', { path: '/f.txt', content: body(k) });
  else await ts.callTool('edit_file', { path: '/f.txt', old_string: `end ${k - 1}`, new_string: `end ${k}` });
}
