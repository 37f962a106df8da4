// rt48 child: builds a big file without keeping it in memory, runs one tool call under the
// heap cap the parent gave (--max-old-space-size), checks the bytes, prints RESULT <json>.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const [which, dir, nArg] = process.argv.slice(2) as [string, string, string];
const N = Number(nArg);
const line = (i: number) => `    const value_${i} = compute(${i}, "some text here");`;
const file = path.join(dir, 'f.txt');
const fd = fs.openSync(file, 'w');
for (let i = 0; i < N; i += 10_000) {
  let s = '';
  for (let j = i; j < Math.min(N, i + 10_000); j++) s += `${line(j)}\n`;
  fs.writeSync(fd, s);
}
fs.closeSync(fd);
const size = fs.statSync(file).size;
const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));

/** The expected text, streamed into a hash (never held whole). */
function expectedSha(map: (i: number, l: string) => string): string {
  const h = crypto.createHash('sha256');
  for (let i = 0; i < N; i += 10_000) {
    let s = '';
    for (let j = i; j < Math.min(N, i + 10_000); j++) s += `${map(j, line(j))}\n`;
    h.update(s);
  }
  return h.digest('hex');
}

let r: { ok: boolean; error?: { code: string } };
let want: string;
if (which === 'replace_all_every_line') {
  r = (await ts.callTool('edit_file', {
    path: '/f.txt',
    old_string: 'some text',
    new_string: 'other text',
    replace_all: true,
  })) as typeof r;
  want = expectedSha((_, l) => l.replace('some text', 'other text'));
} else if (which === 'replace_all_one_percent') {
  r = (await ts.callTool('edit_file', {
    path: '/f.txt',
    old_string: '00, "some',
    new_string: '00, "SOME',
    replace_all: true,
  })) as typeof r;
  want = expectedSha((_, l) => l.replace('00, "some', '00, "SOME'));
} else {
  throw new Error(`unknown case ${which}`);
}
const got = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
console.log(`RESULT ${JSON.stringify({ ok: r.ok, code: r.error?.code, size, bytesOk: got === want })}`);
