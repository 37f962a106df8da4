// Red team (rt30a): what the person is shown is what runs, for argument objects that try to answer
// differently each time they are read (getters, toJSON, Proxy traps, prototype-inherited fields, own
// __proto__), in blocking mode through ApprovalToolset over a custom tool; and records of the same decision
// serialised at different moments (before/after the call ran, after the caller mutated its arguments) all
// verify the same way, in this process and in another.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import { canonicalJson } from '../../src/approval/canonical-json.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { ApprovalToolset, gatedToolset } from '../../src/index.js';
import { nodeScript } from '../helpers/node-script.js';

function tricky(): Array<[string, () => unknown]> {
  return [
    [
      'getter counting reads',
      () => {
        let n = 0;
        return {
          get cmd() {
            n++;
            return n === 1 ? 'ls' : 'rm -rf /';
          },
        };
      },
    ],
    [
      'toJSON answering differently',
      () => {
        let n = 0;
        return { cmd: 'ls', toJSON: () => (n++ === 0 ? { cmd: 'ls' } : { cmd: 'rm -rf /' }) };
      },
    ],
    [
      'proxy',
      () => {
        let n = 0;
        return new Proxy(
          { cmd: 'ls' },
          {
            get: (t, k) => (k === 'cmd' ? (n++ === 0 ? 'ls' : 'rm -rf /') : Reflect.get(t, k)),
            getOwnPropertyDescriptor: (t, k) => {
              const d = Reflect.getOwnPropertyDescriptor(t, k);
              return d && k === 'cmd' ? { ...d, value: n++ === 0 ? 'ls' : 'rm -rf /' } : d;
            },
          },
        );
      },
    ],
    ['inherited field', () => Object.assign(Object.create({ cmd: 'rm -rf /' }), { arg: 'x' })],
    ['own __proto__', () => JSON.parse('{"cmd":"ls","__proto__":{"cmd":"rm -rf /"}}')],
    [
      'array with getter element',
      () => {
        let n = 0;
        const a = ['ls'];
        Object.defineProperty(a, 0, { get: () => (n++ === 0 ? 'ls' : 'rm -rf /'), enumerable: true });
        return { cmd: a };
      },
    ],
  ];
}

describe('shown = run for tricky argument objects (blocking, custom tool)', () => {
  for (const [name, make] of tricky()) {
    it(name, async () => {
      const ran: unknown[] = [];
      const shown: string[] = [];
      const tools = gatedToolset([
        {
          name: 'run',
          description: 'run',
          inputSchema: {},
          execute: (args) => {
            ran.push(JSON.parse(JSON.stringify(args)));
            return 'ok';
          },
        },
      ]);
      const g = new ApprovalToolset(tools, {
        approve: (req) => {
          shown.push(canonicalJson(req.args));
          shown.push(JSON.stringify((req.payload as { args?: unknown }).args ?? null));
          return { approved: true };
        },
      });
      const out: any = await g.callTool('run', make(), { toolCallId: 'c1' });
      if (!out.ok) return; // refusing odd arguments is fine
      expect(ran.length).toBe(1);
      expect(canonicalJson(ran[0])).toBe(shown[0]);
    });
  }
});

const payload: ApprovalPayload = {
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
};

describe('records serialised at different moments', () => {
  const hugeCases: Array<[string | Uint8Array | undefined, number]> = [
    [undefined, 0],
    ['k', 0],
    [new Uint8Array([1, 2, 3]), 0],
    ['k', 12],
  ];
  for (const [secret, mb] of hugeCases) {
    it(`secret ${secret === undefined ? 'none' : typeof secret}${mb ? `, ${mb} MB argument` : ''}: every snapshot verifies like the original, here and in another process`, () => {
      const unit = `${'x'.repeat((1 << 16) - 1)}\ud83d\ude00${'\\'.repeat(70_000)}\ud800"\u2028\udc00\u0001`;
      const big = mb ? unit.repeat(Math.ceil((mb << 20) / unit.length)) : unit;
      const args: Record<string, unknown> = { path: '/a.txt', content: big, n: [1, 2, { z: null }] };
      const edited = { path: '/a.txt', content: `${big}!` };
      const opts = secret === undefined ? {} : { secret };
      const snaps: Record<string, string> = {};
      const b = createBinding(
        {
          toolName: 'write_file',
          toolCallId: 'c1',
          sandboxId: 's',
          requested: captureArguments(args),
          edited: captureArguments(edited),
          payload,
          approved: true,
        },
        opts,
      );
      snaps.beforeAnyRead = JSON.stringify(b);
      const call = { toolName: 'write_file', toolCallId: 'c1', sandboxId: 's', args: structuredClone(args) };
      const first = verifyBinding(b, call, opts);
      snaps.afterRun = JSON.stringify(b);
      args.content = 'mutated by caller';
      (args.n as unknown[]).push(4);
      edited.content = 'also mutated';
      snaps.afterMutation = JSON.stringify(b);
      snaps.v8 = v8.serialize(b).toString('base64');
      snaps.structured = JSON.stringify(structuredClone(b));
      snaps.spread = JSON.stringify({ ...b });
      expect(first.ok).toBe(true);
      const runJson = first.ok ? first.args.json : '';
      expect(
        new Set([snaps.beforeAnyRead, snaps.afterRun, snaps.afterMutation, snaps.structured, snaps.spread])
          .size,
      ).toBe(1);
      for (const [k, s] of Object.entries(snaps)) {
        const rec = k === 'v8' ? v8.deserialize(Buffer.from(s, 'base64')) : JSON.parse(s);
        const r = verifyBinding(rec, call, opts);
        expect(r.ok, k).toBe(true);
        if (r.ok) expect(r.args.json, k).toBe(runJson);
        expect(r.ok && r.edited, k).toBe(true);
      }
      // In another process: each snapshot, and each snapshot tampered (approved flipped / args swapped).
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-snap-'));
      const input = path.join(dir, 'in.json');
      for (const [k, v] of Object.entries(snaps)) fs.writeFileSync(path.join(dir, `snap-${k}`), v);
      fs.writeFileSync(
        input,
        JSON.stringify({
          names: Object.keys(snaps),
          call: { ...call, args: structuredClone({ path: '/a.txt', content: big, n: [1, 2, { z: null }] }) },
          secret: secret instanceof Uint8Array ? { bytes: [...secret] } : secret,
          runJson,
        }),
      );
      const script = path.join(dir, 'check.mts');
      fs.writeFileSync(
        script,
        `import fs from 'node:fs'; import v8 from 'node:v8';
import { verifyBinding } from ${JSON.stringify(path.resolve(__dirname, '../../src/approval/approval-binding.ts'))};
const { names, call, secret, runJson } = JSON.parse(fs.readFileSync(${JSON.stringify(input)}, 'utf8'));
const opts = secret === undefined ? {} : { secret: typeof secret === 'string' ? secret : new Uint8Array(secret.bytes) };
const out = {};
for (const k of names) {
  const s = fs.readFileSync(${JSON.stringify(dir)} + '/snap-' + k, 'utf8');
  const rec = k === 'v8' ? v8.deserialize(Buffer.from(s, 'base64')) : JSON.parse(s);
  const r = verifyBinding(rec, call, opts);
  out[k] = r.ok ? (r.args.json === runJson ? 'ok' : 'ok-but-other-args') : r.error.code;
  const flipped = verifyBinding({ ...rec, approved: false }, call, opts);
  out[k + ':approved-flipped'] = flipped.ok ? 'ok' : flipped.error.code;
  const swapped = verifyBinding({ ...rec, runArgs: rec.requestedArgs }, call, opts);
  out[k + ':run-swapped'] = swapped.ok ? 'ok' : swapped.error.code;
  const other = verifyBinding(rec, call, secret === undefined ? { secret: 'x' } : {});
  out[k + ':other-secret'] = other.ok ? 'ok' : other.error.code;
}
process.stdout.write(JSON.stringify(out));`,
      );
      const res = JSON.parse(
        execFileSync(process.execPath, [nodeScript(script)], {
          cwd: path.resolve(__dirname, '../..'),
          maxBuffer: 1 << 26,
        }).toString(),
      );
      fs.rmSync(dir, { recursive: true, force: true });
      for (const k of Object.keys(snaps)) {
        expect(res[k], k).toBe('ok');
        expect(res[`${k}:approved-flipped`], k).toBe('stale_approval');
        expect(res[`${k}:run-swapped`], k).toBe('stale_approval');
        expect(res[`${k}:other-secret`], k).toBe('stale_approval');
      }
    }, 180_000);
  }
});
