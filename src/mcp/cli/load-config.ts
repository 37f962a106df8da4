import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { MountInput } from '../../sandbox/config.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { type ApprovalPolicy, ApprovalPolicySchema } from '../approval-policy.js';
import { APPROVE_MODES, type ApproveMode } from '../fallback-approval.js';
import { ROOTS_MODES, type RootsMode } from '../roots.js';
import { type CliOptions, CliUsageError } from './parse-args.js';

/** The config file: the Sandbox config (mounts, validated by the Sandbox's own schema) plus server settings. */
const ConfigFileSchema = z
  .object({
    mounts: z.array(z.unknown()).optional(),
    approve: z.enum(APPROVE_MODES as [ApproveMode, ...ApproveMode[]]).optional(),
    /** A policy object, or the path of a policy file (relative to the config file). */
    policy: z.union([ApprovalPolicySchema, z.string().min(1)]).optional(),
    tools: z.array(z.string().min(1)).optional(),
    roots: z.enum(ROOTS_MODES).optional(),
  })
  .strict();

export interface ServerSetup {
  sandbox: Sandbox;
  approve: ApproveMode;
  policy?: ApprovalPolicy;
  tools?: string[];
  elicitation: boolean;
  roots: RootsMode;
}

const issues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`).join('; ');

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliUsageError(
      `Cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? error}.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(`${what} ${file} is not valid JSON: ${(error as Error).message}.`);
  }
}

export function loadPolicy(file: string): ApprovalPolicy {
  const parsed = ApprovalPolicySchema.safeParse(readJson(file, 'policy file'));
  if (!parsed.success) throw new CliUsageError(`Invalid policy file ${file}: ${issues(parsed.error)}.`);
  return parsed.data;
}

/**
 * Turns the command line (and the config file it names) into a validated setup:
 * the sandbox (every mount problem named at once), the approve mode and policy.
 */
export function loadSetup(options: CliOptions, cwd = process.cwd()): ServerSetup {
  let fileMounts: MountInput[] = [];
  let fromFile: z.infer<typeof ConfigFileSchema> = {};
  let configDir = cwd;
  if (options.config) {
    const file = path.resolve(cwd, options.config);
    const parsed = ConfigFileSchema.safeParse(readJson(file, 'config file'));
    if (!parsed.success) throw new CliUsageError(`Invalid config file ${file}: ${issues(parsed.error)}.`);
    fromFile = parsed.data;
    configDir = path.dirname(file);
    // Relative host paths in the file are relative to the file, not to where the server was started.
    fileMounts = (fromFile.mounts ?? []).map((m) =>
      m && typeof m === 'object' && typeof (m as MountInput).hostPath === 'string'
        ? { ...(m as MountInput), hostPath: path.resolve(configDir, (m as MountInput).hostPath) }
        : (m as MountInput),
    );
  }
  const mounts = [...fileMounts, ...options.mounts];
  if (mounts.length === 0)
    throw new CliUsageError('No mounts: give at least one --mount HOST:VIRTUAL[:ro|rw] or a --config file.');
  const sandbox = new Sandbox({ mounts }, { basePath: cwd });
  const policyFromFile =
    typeof fromFile.policy === 'string'
      ? loadPolicy(path.resolve(configDir, fromFile.policy))
      : fromFile.policy;
  const policy = options.policy ? loadPolicy(path.resolve(cwd, options.policy)) : policyFromFile;
  const approve = options.approve ?? fromFile.approve ?? 'deny';
  if (approve === 'policy' && !policy)
    throw new CliUsageError(
      '--approve policy needs a policy: give --policy FILE (or "policy" in the config file).',
    );
  const tools = options.tools ?? fromFile.tools;
  return {
    sandbox,
    approve,
    ...(policy ? { policy } : {}),
    ...(tools ? { tools } : {}),
    elicitation: options.elicitation,
    roots: options.roots ?? fromFile.roots ?? 'ignore',
  };
}
