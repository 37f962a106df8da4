import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AbortEpoch } from '../../src/approval/abort-epoch.js';
import { ApprovalAborted } from '../../src/approval/errors.js';

describe('AbortEpoch', () => {
  it('aborts exactly the requests whose ticket predates a quit (generated sequences)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('take', 'quit', 'other-error'), { maxLength: 40 }), (steps) => {
        const epoch = new AbortEpoch();
        const tickets: { ticket: number; quitsAfter: number }[] = [];
        for (const step of steps) {
          if (step === 'take') tickets.push({ ticket: epoch.ticket(), quitsAfter: 0 });
          else if (step === 'quit') {
            epoch.note(new ApprovalAborted());
            for (const t of tickets) t.quitsAfter++;
          } else epoch.note(new Error('not a quit'));
        }
        for (const t of tickets) {
          const check = () => epoch.throwIfAbortedSince(t.ticket);
          if (t.quitsAfter > 0) expect(check).toThrow(ApprovalAborted);
          else expect(check).not.toThrow();
        }
      }),
      { numRuns: 300 },
    );
  });
});
