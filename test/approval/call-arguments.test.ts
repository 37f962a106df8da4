import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { captureArguments, cloneData } from '../../src/approval/call-arguments.js';
import { canonicalJson } from '../../src/approval/canonical-json.js';

const payload = { type: 'write', description: 'd', path: '/a.txt', mount: '/' } as never;

/** Values JSON treats specially, mixed into generated arguments. */
const odd = fc.oneof(
  fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, undefined, '\ud800', 'a\udfffb', '__proto__'),
  fc.constant(() => 1),
  fc.constant(new Date(0)),
  fc.constant({ toJSON: () => 'replaced' }),
  fc.constant(Object.create(null) as object),
  fc.constant(Object.defineProperty({}, 'x', { get: () => 'from getter', enumerable: true })),
  fc.constant(JSON.parse('{"__proto__": {"polluted": 1}}') as object),
  // biome-ignore lint/suspicious/noSparseArray: a hole is one of the cases
  fc.constant([1, , 3]),
);
const anyArgs = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    odd,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'toJSON', '1', '0')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

describe('call arguments handled once', () => {
  it('a capture is exactly what a JSON round trip gives, for plain data and for every value JSON treats specially', () => {
    fc.assert(
      fc.property(anyArgs, (args) => {
        if (args === undefined) return; // kept as undefined on purpose (no arguments at all)
        const text = JSON.stringify(args);
        const viaJson: unknown = JSON.parse(text ?? 'null');
        const captured = captureArguments(args);
        expect(captured.value).toStrictEqual(viaJson);
        expect(captured.json).toBe(canonicalJson(viaJson));
        if (typeof viaJson === 'object' && viaJson !== null)
          expect(Object.getPrototypeOf(captured.value)).toBe(Object.getPrototypeOf(viaJson));
      }),
      { numRuns: 500 },
    );
  });

  it('cloneData gives what structuredClone gives, and a copy independent of the original', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = cloneData(value);
        expect(copy).toStrictEqual(structuredClone(value));
        if (typeof value === 'object' && value !== null) {
          expect(copy).not.toBe(value);
          // Changing the copy leaves the original as it was.
          const before = JSON.stringify(value);
          (copy as Record<string, unknown>).extra = 1;
          expect(JSON.stringify(value)).toBe(before);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('cloneData keeps shared references and cycles, and refuses functions like structuredClone', () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    const copy = cloneData(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy.again).toBe(copy.shared);
    expect(copy.shared).not.toBe(shared);
    expect(() => cloneData({ f: () => 1 })).toThrow();
    expect(cloneData({ d: new Date(5) }).d).toEqual(new Date(5));
    const proto = cloneData(JSON.parse('{"__proto__":{"x":1}}'));
    expect(Object.keys(proto)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  });

  it('capturing a capture gives the same canonical JSON as capturing the original', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const first = captureArguments(value);
        const again = captureArguments(first.value);
        expect(again.json).toBe(first.json);
        expect(again.json).toBe(canonicalJson(JSON.parse(JSON.stringify(value) ?? 'null')));
        expect(again.value).toStrictEqual(first.value);
      }),
      { numRuns: 300 },
    );
  });

  it('a binding verifies the same in this process (shortcut) and as a stored copy (seal recomputed)', () => {
    fc.assert(
      fc.property(
        fc.record({ path: fc.string(), content: fc.string() }),
        fc.boolean(),
        fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
        (args, approved, secret) => {
          const requested = captureArguments(args);
          const options = secret === undefined ? {} : { secret };
          const binding = createBinding({ toolName: 'write_file', requested, payload, approved }, options);
          const call = { toolName: 'write_file', args };
          const here = verifyBinding(binding, call, options);
          const stored = verifyBinding(JSON.parse(JSON.stringify(binding)), call, options);
          expect(here.ok).toBe(approved);
          expect(stored.ok).toBe(approved);
          if (here.ok && stored.ok) expect(here.args.json).toBe(stored.args.json);
          // Another secret (or none where one was used) refuses the record, in both paths.
          const other = { secret: `${secret ?? ''}x` };
          expect(verifyBinding(binding, call, other).ok).toBe(false);
          expect(verifyBinding(JSON.parse(JSON.stringify(binding)), call, other).ok).toBe(false);
          // An altered stored record is refused.
          const altered = { ...JSON.parse(JSON.stringify(binding)), runArgs: '{"path":"/etc"}' };
          expect(verifyBinding(altered, call, options).ok).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });
});
