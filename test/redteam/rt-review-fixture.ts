// Red-team fixture: an agent stages changes (STAGE_JSON: [{path, old?, content}]), then the person reviews
// with terminalReviewer on this pty. Writes the summary and the files' contents to RESULT_FILE as JSON.
import fs from 'node:fs';
import path from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { terminalReviewer } from '../../src/terminal/index.js';

const dir = process.env.DIR ?? '';
const stage = JSON.parse(process.env.STAGE_JSON ?? '[]') as { path: string; content: string }[];
const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }), { staging: true });
for (const s of stage) await toolset.callTool('write_file', { path: s.path, content: s.content });
process.stdout.write('STAGED\r\n');
if (process.env.BLOCK_MS) {
  const until = performance.now() + Number(process.env.BLOCK_MS);
  while (performance.now() < until);
}
const result = await toolset.stage().review(terminalReviewer());
const files = Object.fromEntries(
  stage.map((s) => [
    s.path,
    fs.existsSync(path.join(dir, s.path)) ? fs.readFileSync(path.join(dir, s.path), 'utf8') : null,
  ]),
);
fs.writeFileSync(
  process.env.RESULT_FILE ?? '',
  JSON.stringify({ summary: (result as { summary?: string }).summary, files }),
);
process.stdout.write('DONE\r\n');
process.exit(0);
