// Red team (rt-bind): ApprovalBinding records made in one OS process and verified in another (both
// directions), with and without a secret, for generated arguments up to 20 MB; records tampered on disk.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import { canonicalJson } from '../../src/approval/canonical-json.js';

const K = 1 << 16;
const worker = path.join(import.meta.dirname, 'bind-xproc-worker.ts');
const tsx = path.join(process.cwd(), 'node_modules/.bin/tsx');
const odd = [
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '\u202e',
  '/',
];

const argsArb = fc
  .tuple(
    fc.integer({ min: 1, max: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...odd), fc.integer({ min: -2, max: 2 })), {
      minLength: 1,
      maxLength: 5,
    }),
    fc.dictionary(
      fc.constantFrom('__proto__', 'toJSON', '10', '9', 'z', 'a'),
      fc.oneof(
        fc.string(),
        fc.constantFrom(-0, Number.NaN, 1e21),
        fc.array(fc.constantFrom(null, '\udc00', -0)),
      ),
      { maxKeys: 4 },
    ),
  )
  .map(([blocks, ins, extra]) => {
    const chars = 'x'.repeat(blocks * K + 1).split('');
    ins.forEach(([p, off], i) => {
      chars[((i % blocks) + 1) * K + off - 1] = p;
    });
    return { content: chars.join(''), path: '/a.txt', extra };
  });

function flip(s: string, at: number): string {
  const c = s.charCodeAt(at);
  return s.slice(0, at) + (c === 0x78 ? 'y' : 'x') + s.slice(at + 1);
}
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'rt-bind-x-'));
const asJson = (v: unknown) => canonicalJson(JSON.parse(JSON.stringify(v)));

/** Edits of a stored record whose JSON text changes the record's value: each must be refused. */
function tampered(record: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const f of ['requestedArgs', 'runArgs'] as const) {
    const j = record[f] as string;
    const variants: Array<[string, string]> = [
      ['x as \\u0078', j.replace('x', '\\u0078')],
      ['space after {', j.replace('{', '{ ')],
      ['keys reversed', JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(j)).reverse()))],
      ['lone surrogate escape upper-cased', j.replace('\\ud800', '\\uD800')],
      ['\\u2028 escaped', j.replace('\u2028', '\\u2028')],
      ['64 Ki char flipped', j.slice(0, K + 5) + (j[K + 5] === 'x' ? 'y' : 'x') + j.slice(K + 6)],
    ];
    for (const [n, v] of variants) if (v !== j) out.push([`${f}: ${n}`, { ...record, [f]: v }]);
  }
  const seal = String(record.seal);
  out.push(['seal edited', { ...record, seal: `${seal.slice(0, -1)}${seal.endsWith('0') ? '1' : '0'}` }]);
  return out;
}

describe('bindings across OS processes', () => {
  const samples = fc.sample(argsArb, { numRuns: 6, seed: 42 });
  samples.push({
    content: `${'x'.repeat(20 * 1024 * 1024 - 3)}\u2028"\\`,
    path: '/a.txt',
    extra: { '9': -0 },
  });

  it('made in a child process, verified here: unaltered runs exactly runArgs; changes and tamperings refused', () => {
    const dir = tmp();
    const jobs = samples.flatMap((args, i) =>
      [undefined, 's3cret'].map((secret) => ({
        args,
        ...(i % 2 ? { edited: { ...args, content: `${args.content}E` } } : {}),
        ...(secret ? { secret } : {}),
      })),
    );
    fs.writeFileSync(path.join(dir, 'in.json'), JSON.stringify(jobs));
    execFileSync(tsx, [worker, 'make', path.join(dir, 'in.json'), path.join(dir, 'out.json')], {
      stdio: 'inherit',
    });
    const records = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')) as Record<
      string,
      unknown
    >[];
    jobs.forEach((job, i) => {
      const options = job.secret ? { secret: job.secret } : {};
      const call = { toolName: 'write_file', toolCallId: 'c1', args: job.args };
      const r = verifyBinding(records[i], call, options);
      if (!r.ok) throw new Error(`job ${i}: unaltered record refused: ${r.error.message}`);
      expect(canonicalJson(r.args.value) === asJson(job.edited ?? job.args)).toBe(true);
      const changed = { ...job.args, content: flip(job.args.content, K) };
      const c2 = verifyBinding(records[i], { ...call, args: changed }, options);
      expect(c2.ok ? 'ok' : c2.error.code).toBe('stale_approval');
      for (const [name, forged] of tampered(records[i]!)) {
        let described: unknown = job.args;
        try {
          described = JSON.parse(forged.requestedArgs as string);
        } catch {}
        for (const args of [job.args, described]) {
          const t = verifyBinding(forged, { ...call, args }, options);
          expect(t.ok ? `ran ${name}` : t.error.code, name).toBe('stale_approval');
        }
      }
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('made here, verified in a child process (records written to disk, some tampered)', () => {
    const dir = tmp();
    const items: Array<{ record: unknown; secret?: string; args: unknown; expect: string }> = [];
    samples.forEach((args, i) => {
      for (const secret of [undefined, 's3cret']) {
        const edited = i % 2 ? { ...args, content: `E${args.content}` } : undefined;
        const b = createBinding(
          {
            toolName: 'write_file',
            toolCallId: 'c1',
            requested: captureArguments(args),
            payload: {
              type: 'write',
              description: 'x',
              path: '/a.txt',
              mount: '/',
              baseSha256: null,
              content: 'x',
              contentLines: 1,
              contentBytes: 1,
              preview: 'x',
              previewTruncated: false,
              fileExists: false,
              existingLines: 0,
              existingBytes: 0,
            },
            approved: true,
            ...(edited ? { edited: captureArguments(edited) } : {}),
          },
          secret ? { secret } : {},
        );
        const record = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
        const s = secret ? { secret } : {};
        items.push({ record, ...s, args, expect: `ok:${asJson(edited ?? args)}` });
        items.push({
          record,
          ...s,
          args: { ...args, content: flip(args.content, K - 1) },
          expect: 'stale_approval',
        });
        if (i < 3)
          for (const [, forged] of tampered(record))
            items.push({ record: forged, ...s, args, expect: 'stale_approval' });
      }
    });
    fs.writeFileSync(path.join(dir, 'records.json'), JSON.stringify(items));
    execFileSync(tsx, [worker, 'verify', path.join(dir, 'records.json'), path.join(dir, 'out.json')], {
      stdio: 'inherit',
    });
    const results = JSON.parse(fs.readFileSync(path.join(dir, 'out.json'), 'utf8')) as Array<{
      ok: boolean;
      run?: string;
      code?: string;
    }>;
    const got = results.map((r) => (r.ok ? `ok:${r.run}` : r.code));
    const bad = items
      .map((it, i) =>
        got[i] === it.expect
          ? undefined
          : `${i}: want ${it.expect.slice(0, 40)} got ${String(got[i]).slice(0, 40)}`,
      )
      .filter(Boolean);
    expect(bad).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
