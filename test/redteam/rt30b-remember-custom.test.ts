// Red team (rt30b): a person's edit (overrideArgs) + remember on a custom gated tool whose file is named by a
// field the approval layer does not know (`target`, via describeApproval path). Promise: a person's edit with
// remember never lets a later call of the model run unasked on a file the person did not approve.
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, gatedToolset } from '../../src/index.js';

async function settle<T>(p: Promise<T>): Promise<T | Error> {
  try {
    return await p;
  } catch (e) {
    return e as Error;
  }
}

describe('custom tool, file named by its own field', () => {
  for (const scope of ['file', 'mount'] as const) {
    it(`override target /m2/b + remember ${scope}: the model's /m1/a never runs unasked`, async () => {
      const ran: string[] = [];
      let asked = 0;
      const tools = gatedToolset([
        {
          name: 'wipe',
          description: 'wipe a file',
          inputSchema: {},
          describeApproval: (a: any) => ({
            description: `wipe ${a.target}`,
            path: a.target,
            mount: `/${a.target.split('/')[1]}`,
          }),
          execute: (args: any) => {
            ran.push(args.target);
            return { wiped: args.target };
          },
        },
      ]);
      const g = new ApprovalToolset(tools, {
        approve: () => {
          asked++;
          return asked === 1
            ? { approved: true, overrideArgs: { target: '/m2/b' }, remember: { scope } }
            : { approved: false, note: 'no' };
        },
      });
      const first = await settle(g.callTool('wipe', { target: '/m1/a' }, { toolCallId: 'c1' }));
      const second = await settle(g.callTool('wipe', { target: '/m1/a' }, { toolCallId: 'c2' }));
      // Wanted: the decision refused (TypeError), or the second call asked again (and denied).
      const seen = { ran, first: first instanceof TypeError ? 'refused' : 'ran', asked };
      expect(ran.includes('/m1/a'), JSON.stringify(seen)).toBe(false);
      void second;
    });
  }
});
