// A `run_command` tool of your own, gated like the file tools: the person sees the exact command
// before it runs. It runs only the programs listed, without a shell, in one directory.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { GatedTool } from '../src/approval/gated-toolset.js';

const run = promisify(execFile);
const ALLOWED = ['node', 'ls', 'git'];

const input = z.object({
  command: z.enum(ALLOWED as [string, ...string[]]).describe('The program to run'),
  args: z.array(z.string()).max(20).default([]).describe('Its arguments, one per item'),
});
type Input = z.infer<typeof input>;

export function runCommandTool(cwd: string): GatedTool<Input> {
  return {
    name: 'run_command',
    description: `Run one of ${ALLOWED.join(', ')} in the project directory (no shell) and return its output.`,
    inputSchema: input,
    describeApproval: (a) => ({
      description: `Run \`${[a.command, ...(a.args ?? [])].join(' ')}\` in the project`,
    }),
    execute: async (a) => {
      const { command, args } = input.parse(a);
      const { stdout, stderr } = await run(command, args, { cwd, timeout: 10_000, maxBuffer: 1 << 20 });
      return { stdout, stderr };
    },
  };
}
