// Worker for fdio-xproc.test.ts: N times, bump this worker's own counter line in a shared file with one tool.
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const [dir, tag, nStr, tool] = process.argv.slice(2) as [string, string, string, string];
const n = Number(nStr);
const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), {
  limits: { readMaxChars: 10_000_000, readMaxLines: 1_000_000 },
});
const g = new ApprovalToolset(ts, {
  approve: async () => {
    await new Promise((r) => setTimeout(r, Math.random() * 2));
    return { approved: true };
  },
});
let failures = 0;
for (let i = 0; i < n; i++) {
  let done = false;
  for (let attempt = 0; attempt < 50 && !done; attempt++) {
    let out: any;
    if (tool === 'edit_file') {
      out = await g.callTool('edit_file', {
        path: '/shared.txt',
        old_string: `${tag}=${i};`,
        new_string: `${tag}=${i + 1};`,
      });
    } else if (tool === 'edit_lines') {
      const r: any = await g.callTool('read_file', { path: '/shared.txt', hashes: true, head: 10 });
      const line = r.data.content.split('\n').find((l: string) => l.endsWith(`|${tag}=${i};`));
      if (!line) throw new Error(`${tag}: line for ${i} not found: ${r.data.content}`);
      out = await g.callTool('edit_lines', {
        path: '/shared.txt',
        operations: [{ op: 'replace_line', hash: line.split('|')[0], content: `${tag}=${i + 1};` }],
      });
    } else if (tool === 'patch_file') {
      const r: any = await g.callTool('read_file', { path: '/shared.txt', head: 1 });
      out = await g.callTool('patch_file', {
        path: '/shared.txt',
        base_sha256: r.data.sha256,
        unified_diff: `--- a\n+++ b\n@@ -1,0 +1,0 @@\n-${tag}=${i};\n+${tag}=${i + 1};\n`,
      });
    } else {
      // write_file with base_sha256: read whole file, rewrite it
      const r: any = await g.callTool('read_file', { path: '/shared.txt', limit: 1_000_000 });
      const shown = r.data.content as string;
      const content = (shown.endsWith('\n') ? shown : `${shown}\n`).replace(
        `${tag}=${i};`,
        `${tag}=${i + 1};`,
      );
      out = await g.callTool('write_file', { path: '/shared.txt', content, base_sha256: r.data.sha256 });
    }
    if (out.ok) done = true;
    else if (!['state_mismatch', 'stale_approval', 'anchor_stale', 'invalid_diff'].includes(out.error.code)) {
      process.stderr.write(`${tag} #${i}: ${out.error.code} ${out.error.message}\n`);
      failures++;
      done = true;
    }
  }
  if (!done) failures++;
}
process.stdout.write(JSON.stringify({ tag, failures }));
