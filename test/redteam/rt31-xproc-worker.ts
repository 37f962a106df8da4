// Worker for rt31-xproc.test.ts. argv: root tag n tool
//   bumps this worker's line `${tag}=${i};` n times on /f.txt with FileSystemToolset directly (no approval layer),
//   by edit_file / patch_file (base from a fresh read; retried on state_mismatch) / edit_lines (hashed read; retried
//   on anchor errors). Prints {tag, codes}.
//   tool 'read': reads /f.txt bytes with fs for `n` ms and prints every torn/odd snapshot it saw.
import fs from 'node:fs';
import path from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const [root, tag, nStr, tool] = process.argv.slice(2) as [string, string, string, string];
const n = Number(nStr);
const codes: string[] = [];
if (tool === 'read') {
  const file = path.join(root, 'f.txt');
  const end = Date.now() + n;
  let reads = 0;
  const bad: string[] = [];
  const last: Record<string, number> = {};
  while (Date.now() < end) {
    let s: string;
    try {
      s = fs.readFileSync(file, 'utf8');
    } catch (e) {
      bad.push(`read error ${(e as Error).message.slice(0, 80)}`);
      continue;
    }
    reads++;
    const lines = s.split('\r\n');
    if (lines.at(-1) !== '') bad.push(`no final CRLF: ${JSON.stringify(s.slice(-40))}`);
    for (const l of lines.slice(0, -1)) {
      const m = /^\t?(P\d+)=(\d+);[ \t]*$/.exec(l);
      if (m) {
        const v = Number(m[2]);
        if (v < (last[m[1]!] ?? 0)) bad.push(`${m[1]} went back ${last[m[1]!]} -> ${v}`);
        last[m[1]!] = v;
      } else if (!/^#+$/.test(l)) bad.push(`odd line ${JSON.stringify(l.slice(0, 60))}`);
    }
    if (bad.length > 20) break;
  }
  process.stdout.write(JSON.stringify({ tag, codes: bad, reads }));
  process.exit(0);
}
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }));
for (let i = 0; i < n; i++) {
  for (let attempt = 0; attempt < 200; attempt++) {
    let out: any;
    if (tool === 'edit') {
      // the file's line has a tab indent and trailing spaces: a line-wise (fuzzy) match
      out = await ts.callTool('edit_file', {
        path: '/f.txt',
        old_string: `${tag}=${i};\n`,
        new_string: `${tag}=${i + 1};\n`,
      });
    } else if (tool === 'patch') {
      const r: any = await ts.callTool('read_file', { path: '/f.txt', limit: 50 });
      out = await ts.callTool('patch_file', {
        path: '/f.txt',
        base_sha256: r.data.sha256,
        unified_diff: `--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-${tag}=${i};\n+${tag}=${i + 1};\n`,
      });
    } else {
      const r: any = await ts.callTool('read_file', { path: '/f.txt', hashes: true, limit: 50 });
      const line = String(r.data.content)
        .split('\n')
        .find((l: string) => l.includes(`|\t${tag}=`));
      const anchor = line?.split('|')[0];
      out = await ts.callTool('edit_lines', {
        path: '/f.txt',
        operations: [{ op: 'replace_line', hash: anchor, content: `\t${tag}=${i + 1};   ` }],
      });
      if (out.ok === false && /anchor|stale/.test(out.error.code)) continue;
      if (!line?.includes(`${tag}=${i};`)) codes.push(`${i}: saw ${line}`);
    }
    if (out.ok) break;
    if (out.error.code === 'state_mismatch' || out.error.code === 'stale_approval') continue;
    codes.push(`${i}:${out.error.code}:${out.error.message.slice(0, 160)}`);
    break;
  }
}
process.stdout.write(JSON.stringify({ tag, codes }));
process.exit(0);
