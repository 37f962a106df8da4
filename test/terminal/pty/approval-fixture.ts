// Run in a real pseudo-terminal by key-leak-pty.test.ts: asks COUNT generic approvals with the
// terminal approver on the process's own stdin/stdout, "busy" for BUSY_MS before each (as an
// agent is between tool calls), and appends each decision to RESULT_FILE as a JSON line.
import fs from 'node:fs';
import type { ApprovalRequest } from '../../../src/approval/types.js';
import { terminalApprover } from '../../../src/terminal/terminal-approver.js';
import { deployRequest } from '../deploy-request.js';

const count = Number(process.env.COUNT ?? 2);
const busyMs = Number(process.env.BUSY_MS ?? 0);
const resultFile = process.env.RESULT_FILE ?? '';
const approve = terminalApprover();

for (let n = 1; n <= count; n++) {
  process.stdout.write(`BUSY ${n}\r\n`);
  await new Promise((r) => setTimeout(r, busyMs));
  const request: ApprovalRequest = process.env.BIG ? bigPatch() : deployRequest(n);
  let line: string;
  try {
    line = JSON.stringify(await approve(request));
  } catch (error) {
    line = JSON.stringify({ error: (error as Error).name });
  }
  fs.appendFileSync(resultFile, `${line}\n`);
}
process.stdout.write('DONE\r\n');

/** A 150-line patch: the pager opens at once (alternate screen, hidden cursor). */
function bigPatch(): ApprovalRequest {
  const lines = Array.from({ length: 150 }, (_, i) => `+line ${i}`).join('\n');
  const payload = {
    type: 'patch',
    description: 'patch /big.txt',
    path: '/big.txt',
    mount: '/',
    baseSha256: 'x',
    unifiedDiff: `--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,150 @@\n${lines}\n`,
    diffLines: 153,
    added: 150,
    removed: 0,
    hunks: 1,
    fileExists: true,
    relocated: false,
  } as unknown as ApprovalRequest['payload'];
  return { toolName: 'patch_file', args: {}, description: 'patch /big.txt', payload };
}
