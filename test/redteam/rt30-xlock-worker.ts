// Worker for rt30-xlock.test.ts. argv: root tag n spelling mode
//   mode 'bump': n times, edit_file this worker's counter `${tag}=${i};` -> `${tag}=${i + 1};` through the approval
//   layer (approve after a short random delay); prints {tag, codes} — every non-ok outcome's code.
//   mode 'hang': starts one edit_file, prints HOLDING from inside the approval callback and never answers.
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

const [root, tag, nStr, spelling, mode] = process.argv.slice(2) as [string, string, string, string, string];
const n = Number(nStr);
const ts = new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' }));
const g = new ApprovalToolset(ts, {
  approve: async (req) => {
    if (mode === 'hang') {
      process.stdout.write('HOLDING\n');
      return new Promise(() => {
        setInterval(() => {}, 1000);
      });
    }
    const p = req.payload as { type: string; unifiedDiff?: string };
    // The payload was computed under the lock: it must show exactly this worker's one-line bump.
    const ms = Math.random() * 3;
    if (ms > 0.3) await new Promise((r) => setTimeout(r, ms));
    return { approved: true, ...(p.type ? {} : {}) };
  },
});
const codes: string[] = [];
if (mode === 'create') {
  // n files, each created (or overwritten) once by every worker, named through this worker's spelling of a
  // directory: `${spelling}/sub-${i}/new.txt`. Reports which ones it was shown as a create.
  const creates: number[] = [];
  const g2 = new ApprovalToolset(ts, {
    approve: async (req) => {
      const p = req.payload as { type: string; fileExists?: boolean };
      if (p.type === 'write' && p.fileExists === false)
        creates.push(Number(/sub-(\d+)/.exec(req.toolCallId ?? '')?.[1] ?? -1));
      await new Promise((r) => setTimeout(r, Math.random() * 3));
      return { approved: true };
    },
  });
  for (let i = 0; i < n; i++) {
    const out: any = await g2.callTool(
      'write_file',
      { path: `${spelling}/sub-${i}/new.txt`, content: `${tag}\n` },
      { toolCallId: `${tag}-sub-${i}` },
    );
    if (!out.ok) codes.push(`${i}:${out.error.code}:${out.error.message.slice(0, 160)}`);
  }
  process.stdout.write(JSON.stringify({ tag, codes, creates }));
  process.exit(0);
}
const start = mode === 'hang' ? 0 : 0;
for (let i = start; i < (mode === 'hang' ? 1 : n); i++) {
  const out: any = await g.callTool(
    'edit_file',
    { path: spelling, old_string: `${tag}=${i};`, new_string: `${tag}=${i + 1};` },
    { toolCallId: `${tag}-${i}` },
  );
  if (!out.ok) codes.push(`${i}:${out.error.code}:${out.error.message.slice(0, 120)}`);
}
process.stdout.write(JSON.stringify({ tag, codes }));
