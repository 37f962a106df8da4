// Run in a real pseudo-terminal by key-leak-pty.test.ts: asks COUNT generic approvals with the
// terminal approver on the process's own stdin/stdout, "busy" for BUSY_MS before each (as an
// agent is between tool calls), and appends each decision to RESULT_FILE as a JSON line.
import fs from 'node:fs';
import type { ApprovalRequest } from '../../../src/approval/types.js';
import { terminalApprover } from '../../../src/terminal/terminal-approver.js';

const count = Number(process.env.COUNT ?? 2);
const busyMs = Number(process.env.BUSY_MS ?? 0);
const resultFile = process.env.RESULT_FILE ?? '';
const approve = terminalApprover();

for (let n = 1; n <= count; n++) {
  process.stdout.write(`BUSY ${n}\r\n`);
  await new Promise((r) => setTimeout(r, busyMs));
  const request: ApprovalRequest = {
    toolName: 'deploy',
    args: { n },
    description: `deploy #${n}`,
    payload: {
      type: 'generic',
      description: `deploy #${n}`,
      path: '',
      mount: '',
      toolName: 'deploy',
      args: {},
    },
  };
  let line: string;
  try {
    line = JSON.stringify(await approve(request));
  } catch (error) {
    line = JSON.stringify({ error: (error as Error).name });
  }
  fs.appendFileSync(resultFile, `${line}\n`);
}
process.stdout.write('DONE\r\n');
