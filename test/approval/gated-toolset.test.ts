import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset } from '../../src/approval/approval-toolset.js';
import { combineToolsets } from '../../src/approval/combine-toolsets.js';
import { type GatedTool, gatedToolset } from '../../src/approval/gated-toolset.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { ApprovalPayloadSchema } from '../../src/contract/payloads.js';
import { project } from '../tools/fixture.js';

const echo = (ran: unknown[]): GatedTool => ({
  name: 'echo',
  description: 'Echo',
  inputSchema: {},
  execute: (args) => {
    ran.push(args);
    return args;
  },
});

/** JSON objects as a model sends them (the framework parsed them from JSON). */
const jsonArgs = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });

describe('gatedToolset through ApprovalToolset', () => {
  it('property: the person sees every argument (a valid generic payload); a denied call never runs', async () => {
    await fc.assert(
      fc.asyncProperty(jsonArgs, fc.boolean(), async (args, approved) => {
        const ran: unknown[] = [];
        const shown: ApprovalRequest[] = [];
        const gated = new ApprovalToolset(gatedToolset([echo(ran)]), {
          approve: (r) => {
            shown.push(r);
            return { approved };
          },
        });
        const outcome = await gated.callTool('echo', args);
        expect(shown).toHaveLength(1);
        const payload = ApprovalPayloadSchema.parse(shown[0]?.payload);
        expect(payload.type).toBe('generic');
        // Arguments are captured as JSON data (so -0 is shown and run as 0).
        const asJson = JSON.parse(JSON.stringify(args));
        expect(payload.type === 'generic' && payload.args).toEqual(asJson);
        expect(ran).toEqual(approved ? [asJson] : []);
        expect(outcome.ok).toBe(approved);
        if (!outcome.ok) expect(outcome.error.code).toBe('approval_denied');
      }),
      { numRuns: 200 },
    );
  });

  it('a described payload of another type is checked against the schemas; a bad one blocks the call', async () => {
    const ran: unknown[] = [];
    const bad = { ...echo(ran), describeApproval: () => ({ type: 'write', description: 'x' }) as never };
    const asked: unknown[] = [];
    const gated = new ApprovalToolset(gatedToolset([bad]), {
      approve: (r) => {
        asked.push(r);
        return { approved: true };
      },
    });
    const outcome = await gated.callTool('echo', { a: 1 });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error.code).toBe('invalid_argument');
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
    const notText = { ...echo(ran), describeApproval: () => ({ description: 42 }) as never };
    const alsoBad = new ApprovalToolset(gatedToolset([notText]), { approve: () => ({ approved: true }) });
    const refused = await alsoBad.callTool('echo', { a: 1 });
    expect(!refused.ok && refused.error.code).toBe('invalid_argument');
    expect(ran).toEqual([]);
  });

  it('preApproved in the config skips asking; unknown tools are refused; throws become tool_failed', async () => {
    const ran: unknown[] = [];
    const thrower: GatedTool = {
      name: 'boom',
      description: '',
      inputSchema: {},
      execute: () => {
        throw new Error('bang');
      },
    };
    const gated = new ApprovalToolset(gatedToolset([echo(ran), thrower]), {
      approve: () => ({ approved: true }),
      config: { echo: { preApproved: true } },
    });
    expect(await gated.callTool('echo', { x: 1 })).toEqual({ ok: true, data: { x: 1 } });
    const unknown = await gated.callTool('nope', {});
    expect(!unknown.ok && unknown.error.code).toBe('invalid_argument');
    const boom = await gated.callTool('boom', {});
    expect(boom).toEqual({ ok: false, error: { code: 'tool_failed', message: 'boom failed: bang' } });
  });

  it('combineToolsets routes each call to its toolset and refuses duplicate names', async () => {
    const ran: unknown[] = [];
    const { toolset: files } = project({ 'a.txt': 'hi\n' });
    const both = combineToolsets(files, gatedToolset([echo(ran)]));
    expect(both.listTools().map((t) => t.name)).toContain('read_file');
    expect(both.listTools().map((t) => t.name)).toContain('echo');
    const gated = new ApprovalToolset(both, { approve: () => ({ approved: true }) });
    expect((await gated.callTool('read_file', { path: '/a.txt' })).ok).toBe(true);
    expect((await gated.callTool('echo', { y: 2 })).ok).toBe(true);
    expect(ran).toEqual([{ y: 2 }]);
    expect(() => combineToolsets(gatedToolset([echo([])]), gatedToolset([echo([])]))).toThrow(/echo/);
  });
});

describe('combineToolsets: history and undo', () => {
  it("keep the file tools' change journal: ApprovalToolset over the combination lists and undoes their changes", async () => {
    const { dir, toolset: files } = project({ 'a.txt': 'one\n' });
    const gated = new ApprovalToolset(combineToolsets(files, gatedToolset([echo([])])), {
      approve: () => ({ approved: true }),
    });
    await gated.callTool('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' });
    await gated.callTool('echo', { z: 1 });
    expect(gated.history().map((c) => `${c.toolName} ${c.path}`)).toEqual(['edit_file /a.txt']);
    expect((await gated.undo()).ok).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8')).toBe('one\n');
  });
});
