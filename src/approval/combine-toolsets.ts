import type { ApprovalConfig } from '../contract/approval-types.js';
import type { ChangeRecord } from '../contract/change-record.js';
import type { ToolCallContext } from '../contract/tool-call-context.js';
import type { ToolOutcome } from '../contract/tool-outcome.js';
import type { InnerToolset } from './approval-toolset.js';
import type { ToolDescriptor, Toolset } from './toolset.js';

/**
 * Several toolsets as one (e.g. the file tools and your own `run_command`), so
 * one adapter call, one native-mode answer helper and one audit sink serve all
 * of them. Each call goes to the toolset that has the tool; names must not repeat.
 */
export function combineToolsets(
  ...toolsets: Array<Toolset & Pick<InnerToolset, 'history' | 'undo'>>
): Toolset & Required<Pick<InnerToolset, 'history' | 'undo'>> {
  if (toolsets.length === 0) throw new TypeError('combineToolsets needs at least one toolset.');
  const owner = new Map<string, Toolset>();
  for (const set of toolsets)
    for (const t of set.listTools()) {
      if (owner.has(t.name)) throw new TypeError(`Two toolsets have a tool named "${t.name}".`);
      owner.set(t.name, set);
    }
  // An unknown name goes to the first toolset, which refuses it with its own error.
  const pick = (name: string): Toolset => owner.get(name) ?? (toolsets[0] as Toolset);
  // The change journal and undo are the parts' own (in practice, the file tools').
  const journaled = toolsets.filter((t) => t.history || t.undo);
  return {
    history: (): ChangeRecord[] => journaled.flatMap((t) => t.history?.() ?? []),
    undo: async (): Promise<ToolOutcome> => {
      // Undo in the part whose change is the most recent (journals record when each change was made).
      const latest = journaled
        .map((t) => ({ t, at: t.history?.().at(-1)?.at ?? '' }))
        .sort((a, b) => (a.at < b.at ? 1 : -1))[0]?.t;
      return latest?.undo
        ? latest.undo()
        : {
            ok: false,
            error: { code: 'invalid_argument', message: 'These toolsets keep no change history.' },
          };
    },
    sandbox: { identity: toolsets.map((t) => t.sandbox.identity).join('+') },
    listTools: (): ToolDescriptor[] => toolsets.flatMap((t) => [...t.listTools()]),
    callTool: (name: string, args: unknown, ctx?: ToolCallContext): Promise<ToolOutcome> =>
      pick(name).callTool(name, args, ctx),
    needsApproval: (name: string, args: unknown, ctx?: ToolCallContext, config?: ApprovalConfig) =>
      pick(name).needsApproval(name, args, ctx, config),
    lockKeys: (name: string, args: unknown) => pick(name).lockKeys(name, args),
  };
}
