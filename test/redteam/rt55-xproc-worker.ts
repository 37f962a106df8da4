// Worker for rt55 tests (another OS process). argv: root, job (JSON).
//   { kind: 'edits', pairs: [[old, new], ...], path }   edit_file each pair in turn (no approval layer)
//   { kind: 'patches', markers: [...], path }          patch_file each marker's line (base from a fresh read, retried)
//   { kind: 'inplace', path, at, bytes }               overwrite bytes in place (same inode, same size)
// Prints one JSON line: { results: [...] }.
import fs from 'node:fs';
import path from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const [root, jobText] = process.argv.slice(2) as [string, string];
const job = JSON.parse(jobText);
const results: unknown[] = [];
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }), {
  limits: { readMaxChars: 64 << 20, readMaxLines: 10_000_000 },
});

if (job.kind === 'edits') {
  for (const [oldS, newS] of job.pairs as Array<[string, string]>) {
    const r: any = await ts.callTool('edit_file', { path: job.path, old_string: oldS, new_string: newS });
    results.push(r.ok ? { ok: true, sha256: r.data.sha256 } : { ok: false, code: r.error.code });
  }
} else if (job.kind === 'patches') {
  for (const marker of job.markers as string[]) {
    let done: unknown = { ok: false, code: 'gave up' };
    for (let attempt = 0; attempt < 50; attempt++) {
      const rd: any = await ts.callTool('read_file', { path: job.path });
      const lines: string[] = rd.data.content.split('\n');
      const i = lines.findIndex((l) => l.includes(marker));
      const diff = `--- a${job.path}\n+++ b${job.path}\n@@ -${i + 1},1 +${i + 1},1 @@\n-${lines[i]}\n+${lines[i]!.replace(marker, `${marker}!`)}\n`;
      const r: any = await ts.callTool('patch_file', {
        path: job.path,
        unified_diff: diff,
        base_sha256: rd.data.sha256,
      });
      if (r.ok) {
        done = { ok: true };
        break;
      }
      if (r.error.code !== 'state_mismatch') {
        done = { ok: false, code: r.error.code, message: r.error.message.slice(0, 200) };
        break;
      }
    }
    results.push(done);
  }
} else if (job.kind === 'inplace') {
  const fd = fs.openSync(path.join(root, job.path), 'r+');
  fs.writeSync(fd, Buffer.from(job.bytes, 'utf8'), 0, Buffer.byteLength(job.bytes), job.at);
  fs.closeSync(fd);
  results.push({ ok: true });
}
process.stdout.write(`${JSON.stringify({ results })}\n`);
