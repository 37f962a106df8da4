// Run in a real pseudo-terminal by key-leak-pty.test.ts: asks COUNT generic approvals with the
// terminal approver on the process's own stdin/stdout, "busy" for BUSY_MS before each (as an
// agent is between tool calls), and appends each decision to RESULT_FILE as a JSON line.
import fs from 'node:fs';
import { createTwoFilesPatch } from 'diff';
import type { ApprovalRequest } from '../../../src/contract/approval-types.js';
import { terminalApprover } from '../../../src/terminal/terminal-approver.js';
import { deployRequest } from '../deploy-request.js';

const count = Number(process.env.COUNT ?? 2);
const busyMs = Number(process.env.BUSY_MS ?? 0);
const resultFile = process.env.RESULT_FILE ?? '';
const hookMs = Number(process.env.HOOK_MS ?? 0);
const parallelAt = process.env.PARALLEL_AT_MS;
/** Blocks the event loop (a synchronous hook, a payload being built). */
const block = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
let hooked = 0;
const approve = terminalApprover(
  hookMs
    ? {
        // A synchronous onPrompt (the docs suggest ringing a bell) that blocks the first prompt.
        onPrompt: () => {
          if (hooked++ > 0) return;
          process.stdout.write('HOOKED\r\n');
          block(hookMs);
        },
      }
    : {},
);

if (parallelAt !== undefined) {
  // Two tool calls in parallel: the first asks at once; the second builds a 200,000-line
  // write payload (diff and all) synchronously PARALLEL_AT_MS later, then asks too.
  const first = approve(deployRequest(1));
  const second = new Promise<unknown>((resolve) =>
    setTimeout(() => {
      process.stdout.write('BUILDING\r\n');
      const started = performance.now();
      const old = Array.from({ length: 200_000 }, (_, i) => `line ${i} of the generated file`);
      const changed = old.map((l, i) => (i % 50_000 === 7 ? `${l} (changed)` : l));
      const diff = createTwoFilesPatch('a', 'b', `${old.join('\n')}\n`, `${changed.join('\n')}\n`);
      // On a fast machine the build still blocks at least 600 ms, as on a slow one.
      block(600 - (performance.now() - started));
      process.stdout.write(`BUILT ${diff.length}\r\n`);
      resolve(approve(deployRequest(2)));
    }, Number(parallelAt)),
  );
  for (const p of [first, second]) {
    let line: string;
    try {
      line = JSON.stringify(await p);
    } catch (error) {
      line = JSON.stringify({ error: (error as Error).name });
    }
    fs.appendFileSync(resultFile, `${line}\n`);
  }
  process.stdout.write('DONE\r\n');
  process.exit(0);
}

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
