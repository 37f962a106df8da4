import picomatch from 'picomatch';
import { z } from 'zod';
import type { ApprovalRequest } from '../contract/approval-types.js';

const PolicyRuleSchema = z
  .object({
    /** Tool names the rule covers (default: every tool). */
    tools: z.array(z.string().min(1)).min(1).optional(),
    /** Virtual-path globs (e.g. "/src/**"); every path the call touches must match one (default: any path). */
    paths: z
      .array(z.string().min(1).startsWith('/', 'path globs are virtual: start them with "/"'))
      .min(1)
      .optional(),
    decision: z.enum(['approve', 'deny']),
    /** For a deny rule: what the model is told. */
    note: z.string().optional(),
  })
  .strict();

/** A policy file: the first rule that matches a call decides; with no match the call is asked or refused. */
export const ApprovalPolicySchema = z.object({ rules: z.array(PolicyRuleSchema) }).strict();
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

export type PolicyVerdict = { decision: 'approve' } | { decision: 'deny'; note: string } | undefined;

/** The virtual paths a request touches: its path, and the destination of a move or copy. */
function pathsOf(request: ApprovalRequest): string[] {
  const p = request.payload;
  const paths = [p.path];
  if (p.type === 'move' || p.type === 'copy') paths.push(p.destination);
  return paths.filter((x) => x !== '');
}

/** Compiles a policy into a function from request to verdict (undefined: no rule matched). */
export function compilePolicy(policy: ApprovalPolicy): (request: ApprovalRequest) => PolicyVerdict {
  const rules = policy.rules.map((rule) => ({
    rule,
    match: rule.paths ? picomatch(rule.paths, { dot: true }) : undefined,
  }));
  return (request) => {
    const paths = pathsOf(request);
    for (const { rule, match } of rules) {
      if (rule.tools && !rule.tools.includes(request.toolName)) continue;
      if (match && (paths.length === 0 || !paths.every((p) => match(p)))) continue;
      if (rule.decision === 'approve') return { decision: 'approve' };
      return {
        decision: 'deny',
        note:
          rule.note ??
          `The approval policy refuses ${request.toolName} on ${paths.join(', ') || 'this call'}.`,
      };
    }
    return undefined;
  };
}
