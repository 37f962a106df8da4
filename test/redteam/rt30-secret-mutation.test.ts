// Red team (rt30a): a binding sealed under a Uint8Array secret, whose buffer the caller changes afterwards
// (key rotation in place, a zeroed key, a reused buffer). The seal is made with a copy of the key taken at
// creation, but the original record is recognised as "made here, same secret" by the buffer's identity:
// checked under the (now different) bytes, the original passes while every copy of it is refused.
// Promise: a record made under one secret and checked under another is refused, and every copy verifies
// the same way as the original.
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { type ApprovalBinding, createBinding, verifyBinding } from '../../src/approval/approval-binding.js';
import { captureArguments } from '../../src/approval/call-arguments.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';

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
const args = { path: '/a.txt', content: 'hello\n' };
const call = { toolName: 'write_file', toolCallId: 'c1', sandboxId: 's1', args };
const code = (r: ReturnType<typeof verifyBinding>) => (r.ok ? 'ok' : r.error.code);

function make(secret: Uint8Array | string, approved = true): Readonly<ApprovalBinding> {
  return createBinding(
    {
      toolName: 'write_file',
      toolCallId: 'c1',
      sandboxId: 's1',
      requested: captureArguments(args),
      payload,
      approved,
    },
    { secret },
  );
}

const copies = (b: ApprovalBinding): Array<[string, unknown]> => [
  ['original', b],
  ['JSON', JSON.parse(JSON.stringify(b))],
  ['structuredClone', structuredClone(b)],
  ['spread', { ...b }],
  ['v8', v8.deserialize(v8.serialize(b))],
];

describe('Uint8Array secret changed by the caller after the record was made', () => {
  for (const when of ['seal never read before', 'seal read before'] as const) {
    it(`key buffer overwritten in place (${when}): the original is refused under the new bytes, like its copies`, () => {
      const key = new Uint8Array(32).fill(7);
      const b = make(key);
      if (when === 'seal read before') void b.seal;
      const stored = JSON.parse(JSON.stringify(b));
      key.fill(9); // rotated in place: the key is now another secret
      const results = Object.fromEntries(
        [...copies(b), ['stored before the change', stored] as [string, unknown]].map(([name, rec]) => [
          name,
          code(verifyBinding(rec, call, { secret: key })),
        ]),
      );
      // Every form of the record, checked under another secret, is refused.
      expect(results).toEqual({
        original: 'stale_approval',
        JSON: 'stale_approval',
        structuredClone: 'stale_approval',
        spread: 'stale_approval',
        v8: 'stale_approval',
        'stored before the change': 'stale_approval',
      });
    });
  }

  it('a denial made under a key that is then changed still verifies consistently (never ok)', () => {
    const key = new Uint8Array(16).fill(1);
    const b = make(key, false);
    key[0] = 2;
    for (const [name, rec] of copies(b))
      expect(code(verifyBinding(rec, call, { secret: key })), name).not.toBe('ok');
  });

  it('control: the original bytes (a fresh buffer) verify the original and every copy', () => {
    const key = new Uint8Array(32).fill(7);
    const b = make(key);
    key.fill(9);
    const same = new Uint8Array(32).fill(7);
    for (const [name, rec] of copies(b))
      expect(code(verifyBinding(rec, call, { secret: same })), name).toBe('ok');
  });

  it('control: a string key and the Uint8Array of its bytes agree for the original and every copy', () => {
    const b = make('k3y');
    const bytes = new TextEncoder().encode('k3y');
    const got = copies(b).map(([n, rec]) => [n, code(verifyBinding(rec, call, { secret: bytes }))]);
    const orig = got[0]![1];
    for (const [n, c] of got) expect(c, n as string).toBe(orig);
  });
});
