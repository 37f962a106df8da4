// Worker for bind-xproc.test.ts: `make <in> <out>` records bindings for each call in <in>;
// `verify <records> <calls> <out>` verifies each record against each call (another OS process).
import fs from 'node:fs';
import { createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import { canonicalJson } from '../../src/approval/canonical-json.js';

const payload = {
  type: 'write',
  description: 'Overwrite /a.txt',
  path: '/a.txt',
  mount: '/',
  baseSha256: 'b'.repeat(64),
  content: 'x',
  contentLines: 1,
  contentBytes: 1,
  preview: 'x',
  previewTruncated: false,
  fileExists: true,
  existingLines: 1,
  existingBytes: 1,
} as const;

const [mode, a, b, c] = process.argv.slice(2);
if (mode === 'make') {
  const jobs = JSON.parse(fs.readFileSync(a!, 'utf8')) as Array<{
    args: unknown;
    edited?: unknown;
    secret?: string;
  }>;
  const out = jobs.map((j) =>
    createBinding(
      {
        toolName: 'write_file',
        toolCallId: 'c1',
        requested: captureArguments(j.args),
        payload: payload as never,
        approved: true,
        ...(j.edited ? { edited: captureArguments(j.edited) } : {}),
      },
      j.secret ? { secret: j.secret } : {},
    ),
  );
  fs.writeFileSync(b!, JSON.stringify(out));
} else {
  const records = JSON.parse(fs.readFileSync(a!, 'utf8')) as Array<{
    record: unknown;
    secret?: string;
    args: unknown;
  }>;
  const out = records.map(({ record, secret, args }) => {
    const r = verifyBinding(
      record,
      { toolName: 'write_file', toolCallId: 'c1', args },
      secret ? { secret } : {},
    );
    return r.ok ? { ok: true, run: canonicalJson(r.args.value) } : { ok: false, code: r.error.code };
  });
  fs.writeFileSync(c ?? b!, JSON.stringify(out));
}
