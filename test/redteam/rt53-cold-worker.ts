// Child-process oracle for rt53 tests: what a brand-new process shows.
// argv[2]: JSON file { dir, reads: [{ path, offset?, limit? }], edits?: [...] }; prints JSON results.
import fs from 'node:fs';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

interface Job {
  dir: string;
  reads?: { path: string; offset?: number; limit?: number }[];
  /** Differential edit_lines: a fresh toolset per entry, optional hashed read first, then the edit. */
  edits?: { path: string; readFirst: boolean; operations: unknown[] }[];
}

const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as Job;
const out: { reads: unknown[]; edits: unknown[] } = { reads: [], edits: [] };
const sandbox = Sandbox.fromDirectory(job.dir, { mode: 'rw' });
for (const r of job.reads ?? []) {
  const t = new FileSystemToolset(sandbox);
  const res = await t.callTool('read_file', {
    path: r.path,
    hashes: true,
    ...(r.offset ? { offset: r.offset } : {}),
    ...(r.limit ? { limit: r.limit } : {}),
  });
  out.reads.push(res.ok ? (res.data as { content: string }).content : { error: res.error.code });
}
for (const e of job.edits ?? []) {
  const t = new FileSystemToolset(Sandbox.fromDirectory(job.dir, { mode: 'rw' }));
  if (e.readFirst) await t.callTool('read_file', { path: e.path, hashes: true });
  const res = await t.callTool('edit_lines', { path: e.path, operations: e.operations, dryRun: true });
  out.edits.push(
    res.ok ? { ok: true, diff: (res.data as { diff?: string }).diff } : { error: res.error.code },
  );
}
process.stdout.write(JSON.stringify(out));
