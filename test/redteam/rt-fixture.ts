// Red-team fixture, run in a real pty: asks the approval requests in REQUESTS_FILE (a JSON array of
// ApprovalRequest) with terminalApprover on its own stdin/stdout — all at once (PARALLEL=1) or one
// after another — and appends each decision to RESULT_FILE as a JSON line.
import fs from 'node:fs';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { terminalApprover } from '../../src/terminal/terminal-approver.js';

const requests = JSON.parse(fs.readFileSync(process.env.REQUESTS_FILE ?? '', 'utf8')) as ApprovalRequest[];
const resultFile = process.env.RESULT_FILE ?? '';
const approve = terminalApprover({
  ...(process.env.EDITOR_CMD ? { editor: process.env.EDITOR_CMD } : {}),
  ...(process.env.PAGER_MODE ? { pager: process.env.PAGER_MODE as 'builtin' } : {}),
});
const record = async (p: unknown) => {
  let line: string;
  try {
    line = JSON.stringify(await p);
  } catch (error) {
    line = JSON.stringify({ error: (error as Error).name });
  }
  fs.appendFileSync(resultFile, `${line}\n`);
};
if (process.env.PARALLEL) {
  const all = requests.map((r) => approve(r));
  for (const p of all) await record(p);
} else {
  for (const r of requests) {
    process.stdout.write('NEXT\r\n');
    await new Promise((res) => setTimeout(res, Number(process.env.BUSY_MS ?? 50)));
    await record(approve(r));
  }
}
process.stdout.write('DONE\r\n');
process.exit(0);
