// Worker for rt56 (another OS process). argv: root, job JSON { id, files: string[], rounds, seed }.
// Each round flips this worker's own line `W<id>R<r>: todo` to `: done` in one file, with a tool
// picked in turn (edit_file, patch_file, edit_lines, write_file with base), retrying on conflicts.
import crypto from 'node:crypto';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const [root, jobText] = process.argv.slice(2) as [string, string];
const job = JSON.parse(jobText) as { id: number; files: string[]; rounds: number };
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw', writeApproval: false }), {
  limits: { readMaxChars: 64 << 20, readMaxLines: 10_000_000 },
});
const tools = ['edit_file', 'patch_file', 'edit_lines', 'write_file'] as const;
const results: unknown[] = [];
for (let r = 0; r < job.rounds; r++) {
  const file = job.files[(job.id + r) % job.files.length]!;
  const tag = `W${job.id}R${r}: `;
  const tool = tools[(job.id + r) % tools.length]!;
  let done: any = { ok: false, code: 'gave up' };
  for (let attempt = 0; attempt < 200; attempt++) {
    let out: any;
    if (tool === 'edit_file') {
      out = await ts.callTool('edit_file', {
        path: file,
        old_string: `${tag}todo`,
        new_string: `${tag}done`,
      });
    } else {
      const rd: any = await ts.callTool('read_file', { path: file, hashes: tool === 'edit_lines' });
      if (!rd.ok) {
        done = { ok: false, code: rd.error.code };
        break;
      }
      const lines: string[] = rd.data.content.split('\n');
      const i = lines.findIndex((l) => l.includes(`${tag}todo`));
      if (i < 0) {
        done = { ok: false, code: 'line missing', tool };
        break;
      }
      if (tool === 'edit_lines') {
        const anchor = lines[i]!.split('|')[0]!;
        out = await ts.callTool('edit_lines', {
          path: file,
          sanity: 'off',
          operations: [{ op: 'replace_line', hash: anchor, content: `${tag}done` }],
        });
      } else if (tool === 'patch_file') {
        const diff = `--- a${file}\n+++ b${file}\n@@ -${i + 1},1 +${i + 1},1 @@\n-${lines[i]}\n+${tag}done\n`;
        out = await ts.callTool('patch_file', {
          path: file,
          unified_diff: diff,
          base_sha256: rd.data.sha256,
        });
      } else {
        lines[i] = `${tag}done`;
        const text = lines.join('\n');
        out = await ts.callTool('write_file', {
          path: file,
          content: text.endsWith('\n') ? text : `${text}\n`,
          base_sha256: rd.data.sha256,
        });
      }
    }
    if (out.ok) {
      done = { ok: true, tool };
      break;
    }
    const c = out.error.code as string;
    if (c === 'state_mismatch' || c.startsWith('anchor_') || c === 'invalid_diff') {
      done = { ok: false, code: c };
      continue;
    }
    done = { ok: false, code: c, tool, message: String(out.error.message).slice(0, 300) };
    break;
  }
  results.push(done);
}
process.stdout.write(`${JSON.stringify({ results, hash: crypto.randomUUID() })}\n`);
