// Red team (rt-bind): blocking ApprovalToolset + ApprovalMemory "this exact call" over generated
// arguments (odd characters at 64 Ki boundaries, odd keys, -0/NaN, nested arrays, key order).
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalMemory } from '../../src/approval/approval-memory.js';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { canonicalJson } from '../../src/approval/canonical-json.js';
import { gatedToolset } from '../../src/approval/gated-toolset.js';
import type { ApprovalDecision, ApprovalRequest } from '../../src/contract/approval-types.js';
import { flipChar } from '../helpers/flip-char.js';
import { project } from '../tools/fixture.js';

const K = 1 << 16;
const odd = [
  '"',
  '\\',
  '\n',
  '\r',
  '\u0000',
  '\u001f',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '/',
  '\u202e',
  '\ufeff',
];
const boundaryString = (pieces: string[]) =>
  fc
    .tuple(
      fc.integer({ min: 1, max: 2 }),
      fc.array(fc.tuple(fc.constantFrom(...pieces), fc.integer({ min: -2, max: 2 })), {
        minLength: 1,
        maxLength: 5,
      }),
      fc.integer({ min: -3, max: 3 }),
    )
    .map(([blocks, inserts, tail]) => {
      const chars = 'x'.repeat(blocks * K + tail).split('');
      inserts.forEach(([piece, off], i) => {
        chars[Math.max(0, Math.min(chars.length - 1, ((i % blocks) + 1) * K + off - 1))] = piece;
      });
      return chars.join('');
    });
const leaf = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(...odd),
  fc.constantFrom(0, -0, 1, 1e21, Number.NaN, -1.5),
  fc.boolean(),
  fc.constant(null),
);
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'toJSON', '0', '10', '9', 'é'), tie('node'), {
      maxKeys: 4,
    }),
  ),
})).node;

function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).reverse())
      Object.defineProperty(out, k, {
        value: reordered((v as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return v;
}
/** What JSON data a value stands for (a JSON round trip), as canonical text. */
const asJson = (v: unknown) => canonicalJson(JSON.parse(JSON.stringify(v)));

function echoToolset() {
  const ran: unknown[] = [];
  const toolset = gatedToolset([
    {
      name: 'echo',
      description: 'echo',
      inputSchema: {},
      execute: (args) => {
        ran.push(args);
        return { ok: 1 };
      },
    },
  ]);
  return { toolset, ran };
}

describe('blocking callTool: what runs is what the callback approved', () => {
  it('mutating request.args / payload, overrideArgs (same value other key order, or edited), over generated args', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ text: boundaryString(odd), extra: tree }),
        fc.constantFrom('none', 'reordered', 'edited'),
        fc.nat(),
        async (args, mode, pick) => {
          const { toolset, ran } = echoToolset();
          const seen: string[] = [];
          const gated = new ApprovalToolset(toolset, {
            approve: (r: ApprovalRequest): ApprovalDecision => {
              seen.push(asJson(r.args));
              const a = r.args as Record<string, unknown>;
              a.text = 'EVIL';
              a.extra = { evil: true };
              (r.payload as unknown as Record<string, unknown>).description = 'evil';
              if (mode === 'none') return { approved: true };
              const override =
                mode === 'reordered'
                  ? (reordered(args) as Record<string, unknown>)
                  : { ...args, text: flipChar(args.text, pick % args.text.length) };
              return { approved: true, overrideArgs: override };
            },
          });
          const o = await gated.callTool('echo', args);
          expect(seen).toEqual([asJson(args)]);
          if (!o.ok) {
            // A refusal is acceptable; a run of anything else is not.
            expect(ran).toEqual([]);
            return;
          }
          expect(ran.length).toBe(1);
          const want =
            mode === 'edited'
              ? asJson({ ...args, text: flipChar(args.text, pick % args.text.length) })
              : asJson(args);
          expect(asJson(ran[0])).toBe(want);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('ApprovalMemory "this exact call"', () => {
  it('covers the same value (any key order) and never a call one character different (incl. 64 Ki boundaries)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ text: boundaryString(odd), extra: tree }),
        fc.boolean(),
        fc.nat(),
        async (args, approved, pick) => {
          const { toolset, ran } = echoToolset();
          let asks = 0;
          const memory = new ApprovalMemory();
          const gated = new ApprovalToolset(toolset, {
            memory,
            approve: () => {
              asks++;
              return asks === 1
                ? { approved, remember: { scope: 'call' }, ...(approved ? {} : { note: 'no' }) }
                : { approved: false, note: 'asked again' };
            },
          });
          await gated.callTool('echo', args);
          expect(asks).toBe(1);
          // Same value, other key order: covered by the remembered decision.
          const again = await gated.callTool('echo', reordered(args));
          expect(asks).toBe(1);
          expect(again.ok).toBe(approved);
          const n = args.text.length;
          const spots = [0, n - 1, pick % n, K - 1, K, K + 1, 2 * K - 1, 2 * K, 2 * K + 1].filter(
            (i) => i < n,
          );
          for (const at of spots) {
            const before = asks;
            const changed = { ...args, text: flipChar(args.text, at) };
            const o = await gated.callTool('echo', changed);
            expect(asks, `flip at ${at} must be asked again`).toBe(before + 1);
            expect(o.ok).toBe(false);
          }
          // What ran: only the (approved) original value, twice.
          expect(ran.map(asJson)).toEqual(approved ? [asJson(args), asJson(args)] : []);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a call the person only approved in an edited form is not remembered as approved as the model sent it', async () => {
    const { toolset, ran } = echoToolset();
    let asks = 0;
    const gated = new ApprovalToolset(toolset, {
      approve: () => {
        asks++;
        return asks === 1
          ? { approved: true, overrideArgs: { cmd: 'ls -la' }, remember: { scope: 'call' } }
          : { approved: false, note: 'asked again' };
      },
    });
    // An edited approval that also asks to be remembered is refused outright (a TypeError, like any
    // malformed decision): what would be remembered is the model's call, which was never approved.
    await expect(gated.callTool('echo', { cmd: 'rm -rf /' })).rejects.toThrow(
      /overrideArgs.*cannot also remember/,
    );
    expect(ran).toEqual([]);
    // The model sends its original call again: the person is asked again.
    await gated.callTool('echo', { cmd: 'rm -rf /' });
    expect(asks).toBe(2);
    expect(ran.map(asJson)).not.toContain(asJson({ cmd: 'rm -rf /' }));
  });
});

describe('remember + overrideArgs to another file', () => {
  it('"remember this file" given for an edit moved to /ok.txt does not approve later writes to the model\'s /secret.txt', async () => {
    const p = project({ 'secret.txt': 'keep\n', 'ok.txt': 'x\n' });
    let asks = 0;
    const gated = new ApprovalToolset(p.toolset, {
      approve: () => {
        asks++;
        return asks === 1
          ? {
              approved: true,
              overrideArgs: { path: '/ok.txt', content: 'fine\n' },
              remember: { scope: 'file' },
            }
          : { approved: false, note: 'asked again' };
      },
    });
    await expect(gated.callTool('write_file', { path: '/secret.txt', content: 'EVIL\n' })).rejects.toThrow(
      TypeError,
    );
    await gated.callTool('write_file', { path: '/secret.txt', content: 'EVIL\n' });
    expect(asks).toBe(2);
    expect(fs.readFileSync(path.join(p.dir, 'secret.txt'), 'utf8')).toBe('keep\n');
  });
});

describe('parallel calls while the first prompt is open', () => {
  it('a remembered call never covers parallel calls that differ by one char (different tools files, boundaries)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ text: boundaryString(odd), extra: tree }),
        fc.array(fc.boolean(), { minLength: 2, maxLength: 8 }),
        async (args, same) => {
          const { toolset, ran } = echoToolset();
          let asks = 0;
          let release: () => void = () => {};
          const gate = new Promise<void>((r) => {
            release = r;
          });
          const gated = new ApprovalToolset(toolset, {
            approve: async () => {
              asks++;
              if (asks === 1) {
                await gate;
                return { approved: true, remember: { scope: 'call' } };
              }
              return { approved: false, note: 'asked again' };
            },
          });
          const calls = [
            args,
            ...same.map((s, i) =>
              s ? reordered(args) : { ...args, text: flipChar(args.text, (K * (i + 1)) % args.text.length) },
            ),
          ];
          const running = calls.map((a) => gated.callTool('echo', a));
          await new Promise((r) => setTimeout(r, 5));
          release();
          await Promise.all(running);
          const want = calls.filter((_, i) => i === 0 || same[i - 1]).length;
          expect(ran.length).toBe(want);
          for (const r of ran) expect(asJson(r)).toBe(asJson(args));
          expect(asks).toBe(1 + same.filter((s) => !s).length);
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('write_file through the file tools at 1-12 MB', () => {
  const text = ['"', '\\', '\n', '\r', '\u2028', '\u2029', '\ud83d\ude00', '\u202e', '\ufeff', '\u0001', 'é'];
  it('approved content (model or edited) lands byte for byte; remembered call never covers a 1-char change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 16, max: 190 }),
        fc.array(fc.tuple(fc.constantFrom(...text), fc.integer({ min: -1, max: 1 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.boolean(),
        async (blocks, inserts, edit) => {
          const chars = 'x'.repeat(blocks * K).split('');
          for (const [i, [piece, off]] of inserts.entries())
            chars[(((i * 7919) % (blocks - 1)) + 1) * K + off - 1] = piece;
          const content = chars.join('');
          const p = project({ 'a.txt': 'old\n' });
          let asks = 0;
          const edited = `${content}Z`;
          const gated = new ApprovalToolset(p.toolset, {
            approve: (r) => {
              asks++;
              (r.args as Record<string, unknown>).content = 'EVIL';
              if (asks > 1) return { approved: false, note: 'asked again' };
              // An edited call is not remembered ("this exact call" would be the model's, never approved as sent).
              return edit
                ? { approved: true, overrideArgs: { content: edited, path: '/a.txt' } }
                : { approved: true, remember: { scope: 'call' } };
            },
          });
          const first = await gated.callTool('write_file', { path: '/a.txt', content });
          expect(first.ok).toBe(true);
          const disk = fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8');
          expect(disk === (edit ? edited : content)).toBe(true);
          // one char different deep inside, at a 64 Ki boundary: asked again, nothing written
          const at = Math.floor(blocks / 2) * K;
          const o = await gated.callTool('write_file', { path: '/a.txt', content: flipChar(content, at) });
          expect(asks).toBe(2);
          expect(o.ok).toBe(false);
          expect(fs.readFileSync(path.join(p.dir, 'a.txt'), 'utf8') === disk).toBe(true);
          fs.rmSync(p.dir, { recursive: true, force: true });
        },
      ),
      // The change lands on the low half of a surrogate pair (CI seed 1479881446).
      {
        numRuns: 6,
        examples: [
          [
            97,
            [
              ['"', 0],
              ['\ud83d\ude00', 0],
            ],
            false,
          ],
        ],
      },
    );
  });
});
