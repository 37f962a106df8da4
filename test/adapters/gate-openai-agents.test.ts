import { Agent, run, setTracingDisabled, tool } from '@openai/agents';
import { assistantMessage, functionCall, ScriptedModel } from '@openai/agents/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  gateOpenAIAgentsTools,
  openAIAgentsTools,
  openAIAgentsToolset,
  runWithApprovals,
} from '../../adapters/openai-agents.js';
import { combineToolsets } from '../../src/approval/combine-toolsets.js';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { read } from '../helpers/temp-project.js';
import { project } from '../tools/fixture.js';

setTracingDisabled(true);
const seen = (model: ScriptedModel) => JSON.stringify(model.calls.map((c) => c.request.input));

/** A user's own Agents tool; it records what ran and which run context it got. */
function runCommand(ran: string[]) {
  return tool({
    name: 'run_command',
    description: 'Run a command',
    parameters: z.object({ command: z.string() }),
    execute: async ({ command }, runContext) => {
      ran.push(`${command}${(runContext?.context as { user?: string } | undefined)?.user ?? ''}`);
      return `ran ${command}`;
    },
  });
}

describe('gateOpenAIAgentsTools (blocking mode)', () => {
  it('asks with the arguments shown; approved runs with the run context, denied does not', async () => {
    const ran: string[] = [];
    const asked: ApprovalRequest[] = [];
    const model = new ScriptedModel([
      [
        functionCall('run_command', { command: 'ls' }, { callId: 'c1' }),
        functionCall('run_command', { command: 'shutdown' }, { callId: 'c2' }),
      ],
      [assistantMessage('done')],
    ]);
    const tools = gateOpenAIAgentsTools([runCommand(ran)], {
      approval: {
        mode: 'blocking',
        approve: (r) => {
          asked.push(r);
          return (r.args as { command: string }).command === 'ls'
            ? { approved: true }
            : { approved: false, note: 'not that one' };
        },
      },
    });
    const result = await run(new Agent({ name: 'ops', model, tools }), 'go', { context: { user: '@ann' } });
    expect(result.finalOutput).toBe('done');
    expect(ran).toEqual(['ls@ann']);
    expect(asked.map((r) => [r.payload.type, r.payload.description])).toEqual([
      ['generic', 'run_command(command="ls")'],
      ['generic', 'run_command(command="shutdown")'],
    ]);
    expect(seen(model)).toContain('ran ls');
    expect(seen(model)).toContain('error approval_denied');
    expect(seen(model)).toContain('not that one');
  });
});

describe('openAIAgentsTools over the file tools and your own tools (native mode)', () => {
  it('interruptions of both kinds are answered through one callback; only approved calls run', async () => {
    const ran: string[] = [];
    const { dir, toolset: files } = project({ 'a.txt': 'one\n' });
    const toolset = combineToolsets(
      files,
      openAIAgentsToolset([runCommand(ran)], {
        describeApproval: { run_command: (a: { command: string }) => ({ description: `$ ${a.command}` }) },
      }),
    );
    const model = new ScriptedModel([
      [
        functionCall('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' }, { callId: 'e1' }),
        functionCall('run_command', { command: 'ls' }, { callId: 'r1' }),
        functionCall('run_command', { command: 'reboot' }, { callId: 'r2' }),
      ],
      [assistantMessage('finished')],
    ]);
    const tools = openAIAgentsTools(toolset, { approval: { mode: 'native' } });
    const shown: string[] = [];
    const result = await runWithApprovals(new Agent({ name: 'ops', model, tools }), 'go', {
      approve: (r) => {
        shown.push(`${r.payload.type}:${r.description}`);
        return { approved: r.description !== '$ reboot' };
      },
    });
    expect(result.finalOutput).toBe('finished');
    expect(shown.filter((s) => s.startsWith('edit:'))).toHaveLength(1);
    expect(shown.filter((s) => !s.startsWith('edit:')).sort()).toEqual(['generic:$ ls', 'generic:$ reboot']);
    expect(ran).toEqual(['ls']);
    expect(read(dir, 'a.txt')).toBe('ONE\n');
  });
});
