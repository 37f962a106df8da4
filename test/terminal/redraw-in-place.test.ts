import { describe, expect, it } from 'vitest';
import { terminalApprover } from '../../src/terminal/terminal-approver.js';
import { deployRequest } from './deploy-request.js';
import { fakeTty } from './fake-tty.js';

describe('the question is redrawn in place', () => {
  it('after a → Esc the scope list is erased and the question drawn where it was', async () => {
    const tty = fakeTty();
    tty.type('a');
    tty.type('\u001b');
    tty.type('n', '\r');
    const decision = await terminalApprover({ ...tty.io, color: false })(deployRequest(1));
    expect(decision).toEqual({ approved: false });
    const raw = tty.text();
    const up = /\u001b\[(\d+)A\r\u001b\[J/.exec(raw);
    expect(up).not.toBeNull();
    // What is moved over: the question, the choices and the scope list (nothing more, nothing less).
    const before = raw.slice(raw.indexOf('Allow this deploy call?'), up!.index);
    expect(Number(up![1])).toBe(before.split('\n').length - 1);
    expect(raw.split('Allow this deploy call?')).toHaveLength(3);
  });
});
