// Red team (rt-bind): ApprovalBinding records over generated arguments — odd characters at 64 Ki
// boundaries, __proto__/toJSON/numeric keys, -0/NaN, nested arrays, key order — serialised in every
// way a host might (JSON, structuredClone, spread, v8 serialize) and tampered with in storage.
import v8 from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ApprovalBinding, createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import { canonicalJson } from '../../src/approval/canonical-json.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { flipChar } from '../helpers/flip-char.js';

const K = 1 << 16;
const odd = [
  '"',
  '\\',
  '\n',
  '\r',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udc00',
  '\ud83d\ude00',
  '/',
  '\u200b',
  '\u202e',
  'e\u0301',
  '\ufeff',
  '\uffff',
];
/** A long string with odd pieces placed right at (and around) multiples of 64 Ki. */
const boundaryString = fc
  .tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.array(fc.tuple(fc.constantFrom(...odd), fc.integer({ min: -2, max: 2 })), {
      minLength: 1,
      maxLength: 6,
    }),
    fc.integer({ min: -3, max: 3 }),
  )
  .map(([blocks, inserts, tail]) => {
    const chars = 'x'.repeat(blocks * K + tail).split('');
    inserts.forEach(([piece, off], i) => {
      const at = Math.max(0, Math.min(chars.length - 1, ((i % blocks) + 1) * K + off - 1));
      chars[at] = piece;
    });
    return chars.join('');
  });

const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom(...odd),
  fc.constantFrom(0, -0, 1, 1e21, 5e-324, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53 + 1, -1.5),
  fc.boolean(),
  fc.constant(null),
);
const keyArb = fc.constantFrom(
  'a',
  'b',
  '__proto__',
  'toJSON',
  '0',
  '1',
  '10',
  '9',
  '4294967295',
  'é',
  '\u2028',
  'content',
  '',
);
const tree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(keyArb, tie('node'), { maxKeys: 4 }),
  ),
})).node;

const argsArb = fc.record({ path: fc.constant('/a.txt'), content: boundaryString, extra: tree });

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

/** The same value built with keys inserted in reverse order at every level. */
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

const code = (r: ReturnType<typeof verifyBinding>) => (r.ok ? 'ok' : r.error.code);

/** Tampered copies of a stored record: each must be refused. */
function tamperings(
  stored: Record<string, unknown>,
  other: Record<string, unknown>,
): Array<[string, Record<string, unknown>]> {
  const req = stored.requestedArgs as string;
  const run = stored.runArgs as string;
  const out: Array<[string, Record<string, unknown>]> = [];
  const edit = (name: string, field: 'requestedArgs' | 'runArgs', next: string) => {
    const before = stored[field] as string;
    if (next !== before) out.push([name, { ...stored, [field]: next }]);
  };
  for (const field of ['requestedArgs', 'runArgs'] as const) {
    const j = field === 'requestedArgs' ? req : run;
    edit(`${field}: "/" re-escaped as "\\/"`, field, j.replace('/', '\\/'));
    edit(`${field}: first x re-escaped as \\u0078`, field, j.replace('x', '\\u0078'));
    edit(`${field}: \\n re-escaped as \\u000a`, field, j.replace('\\n', '\\u000a'));
    edit(`${field}: \\" re-escaped as \\u0022`, field, j.replace('\\"', '\\u0022'));
    edit(`${field}: whitespace added`, field, j.replace(':', ': '));
    edit(`${field}: trailing newline`, field, `${j}\n`);
    edit(`${field}: keys reordered`, field, JSON.stringify(reordered(JSON.parse(j))));
    edit(`${field}: pretty-printed`, field, JSON.stringify(JSON.parse(j), null, 1));
    edit(`${field}: U+2028 escaped`, field, j.replace('\u2028', '\\u2028'));
    edit(`${field}: lone surrogate raw`, field, j.replace('\\ud800', '\ud800'));
    edit(`${field}: lone surrogate upper-case hex`, field, j.replace('\\ud800', '\\uD800'));
    edit(`${field}: swapped with the other call's`, field, other[field] as string);
  }
  if (req === run) {
    out.push([
      'both args swapped to the other call',
      { ...stored, requestedArgs: other.requestedArgs, runArgs: other.runArgs },
    ]);
  }
  out.push(['approved flipped', { ...stored, approved: !stored.approved }]);
  out.push(['seal upper-cased', { ...stored, seal: String(stored.seal).toUpperCase() }]);
  out.push(['seal of the other call', { ...stored, seal: other.seal }]);
  out.push([
    'toolCallId removed',
    Object.fromEntries(Object.entries(stored).filter(([k]) => k !== 'toolCallId')),
  ]);
  out.push(['baseSha256 nulled', { ...stored, baseSha256: null }]);
  out.push(['extra field', { ...stored, x: 1 }]);
  out.push([
    'own __proto__ field',
    JSON.parse(JSON.stringify(stored).replace('{', '{"__proto__":{"approved":true},')),
  ]);
  return out;
}

describe('ApprovalBinding records over generated arguments', () => {
  it('JSON-serialisable record: frozen, full strings via JSON / structuredClone / spread / v8', () => {
    const args = { path: '/a.txt', content: 'x'.repeat(K + 3) };
    const b = createBinding({
      toolName: 'write_file',
      toolCallId: 'c1',
      requested: captureArguments(args),
      payload,
      approved: true,
    });
    expect(Object.isFrozen(b)).toBe(true);
    const want = canonicalJson(args);
    expect(JSON.parse(JSON.stringify(b)).requestedArgs).toBe(want);
    expect(structuredClone(b).requestedArgs).toBe(want);
    expect({ ...b }.runArgs).toBe(want);
    expect((v8.deserialize(v8.serialize(b)) as ApprovalBinding).runArgs).toBe(want);
    // requestedArgs / runArgs are written out from the captured arguments when read (a 40 MB content
    // is not held twice as JSON), and the seal over their digests is worked out then too; every
    // other field is an own data property, and all are enumerable.
    const accessors = Object.entries(Object.getOwnPropertyDescriptors(b))
      .filter(([, d]) => !('value' in d))
      .map(([k]) => k);
    expect(accessors.sort()).toEqual(['requestedArgs', 'runArgs', 'seal']);
    expect(b.seal).toBe(b.seal);
    expect(JSON.parse(JSON.stringify(b)).seal).toBe(b.seal);
    expect(Object.keys(JSON.parse(JSON.stringify(b))).sort()).toEqual(Object.keys(b).sort());
  });

  for (const secret of [undefined, 'k3y'] as const) {
    it(`round trip verifies and runs exactly runArgs; any edit or other args refused (secret: ${secret ?? 'none'})`, () => {
      const options = secret === undefined ? {} : { secret };
      fc.assert(
        fc.property(argsArb, argsArb, fc.boolean(), fc.nat(), (args, otherArgs, edited, pick) => {
          const cap = captureArguments(args);
          const override = edited ? { ...args, content: `${args.content}!` } : undefined;
          const b = createBinding(
            {
              toolName: 'write_file',
              toolCallId: 'c1',
              requested: cap,
              payload,
              approved: true,
              ...(override ? { edited: captureArguments(override) } : {}),
            },
            options,
          );
          const call = { toolName: 'write_file', toolCallId: 'c1', args };
          const expectRun = canonicalJson(override ?? args);
          const stored = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
          for (const copy of [b, stored, structuredClone(b), { ...b }, v8.deserialize(v8.serialize(b))]) {
            const r = verifyBinding(copy, call, options);
            if (!r.ok) throw new Error(`unaltered record refused: ${r.error.message}`);
            expect(canonicalJson(r.args.value)).toBe(expectRun);
            expect(r.edited).toBe(edited);
            // Same value, keys in another order: the same call.
            expect(code(verifyBinding(copy, { ...call, args: reordered(args) }, options))).toBe('ok');
          }
          // One character different anywhere in content (including each 64 Ki boundary): refused.
          const n = args.content.length;
          const spots = [
            0,
            n - 1,
            pick % n,
            ...[1, 2, 3].flatMap((m) => [m * K - 1, m * K, m * K + 1]),
          ].filter((i) => i >= 0 && i < n);
          for (const at of spots) {
            const changed = { ...args, content: flipChar(args.content, at) };
            for (const copy of [b, stored])
              expect(code(verifyBinding(copy, { ...call, args: changed }, options)), `flip at ${at}`).toBe(
                'stale_approval',
              );
          }
          expect(
            code(verifyBinding(stored, { ...call, args: { ...args, content: `${args.content} ` } }, options)),
          ).toBe('stale_approval');
          if (canonicalJson(otherArgs) !== canonicalJson(args)) {
            expect(code(verifyBinding(stored, { ...call, args: otherArgs }, options))).toBe('stale_approval');
          }
          // Tampered records, presented with the call the tampered JSON now describes and with the original call.
          const other = JSON.parse(
            JSON.stringify(
              createBinding(
                {
                  toolName: 'write_file',
                  toolCallId: 'c1',
                  requested: captureArguments(otherArgs),
                  payload,
                  approved: true,
                },
                options,
              ),
            ),
          ) as Record<string, unknown>;
          for (const [name, forged] of tamperings(stored, other)) {
            let described: unknown = args;
            try {
              described = JSON.parse(forged.requestedArgs as string);
            } catch {}
            for (const a of [args, described]) {
              const r = verifyBinding(forged, { ...call, args: a }, options);
              if (r.ok)
                throw new Error(
                  `tampered record accepted (${name}); would run ${canonicalJson(r.args.value).slice(0, 80)}`,
                );
              expect(r.error.code, name).toBe('stale_approval');
            }
          }
        }),
        { numRuns: 25 },
      );
    });
  }

  it('a denied record stays denied through every copy, whatever the call', () => {
    fc.assert(
      fc.property(argsArb, (args) => {
        const b = createBinding({
          toolName: 'write_file',
          toolCallId: 'c1',
          requested: captureArguments(args),
          payload,
          approved: false,
          note: 'no',
        });
        for (const copy of [b, JSON.parse(JSON.stringify(b)), structuredClone(b), { ...b }]) {
          expect(code(verifyBinding(copy, { toolName: 'write_file', toolCallId: 'c1', args }))).toBe(
            'approval_denied',
          );
          expect(
            code(verifyBinding(copy, { toolName: 'write_file', toolCallId: 'c1', args: reordered(args) })),
          ).toBe('approval_denied');
        }
      }),
      { numRuns: 15 },
    );
  });
});
