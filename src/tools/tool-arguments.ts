import { z } from 'zod';
import { DRY_RUN_FIELD, WRITING_TOOLS } from './dry-run.js';
import { toolError } from './tool-error.js';
import type { SandboxTool } from './types.js';

// biome-ignore lint/suspicious/noExplicitAny: tools of different input/output types live in one registry
type AnyTool = SandboxTool<any, any>;

/**
 * A tool as every surface exposes it: writing tools take `dryRun`, and the
 * schema keeps unknown keys (instead of silently dropping them) so that
 * `parseToolArguments` can refuse them by name, whatever framework parsed first.
 */
export function exposedTool(tool: AnyTool): AnyTool {
  const schema = tool.inputSchema;
  if (!(schema instanceof z.ZodObject)) return tool;
  const widened = WRITING_TOOLS.has(tool.name) ? schema.safeExtend(DRY_RUN_FIELD) : schema;
  return { ...tool, inputSchema: widened.loose() };
}

// A schema's keys, listed once: every call checks its arguments against them.
const knownKeys = new WeakMap<z.ZodObject, ReadonlySet<string>>();

function knownKeysOf(schema: z.ZodObject): ReadonlySet<string> {
  const known = knownKeys.get(schema);
  if (known) return known;
  const keys = new Set(Object.keys(schema.shape));
  knownKeys.set(schema, keys);
  return keys;
}

export interface ParsedArguments {
  input: unknown;
  dryRun: boolean;
}

/** Validates a call's arguments: unknown keys are refused (named), `dryRun` is taken out of the input. */
export function parseToolArguments(tool: AnyTool, args: unknown): ParsedArguments {
  const schema = tool.inputSchema;
  const value = args ?? {};
  if (schema instanceof z.ZodObject && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const known = knownKeysOf(schema);
    const unknown = Object.keys(value).filter((k) => !known.has(k));
    if (unknown.length > 0) {
      const list = unknown.map((k) => JSON.stringify(k)).join(', ');
      throw toolError(
        'invalid_argument',
        `Unknown argument${unknown.length === 1 ? '' : 's'} for ${tool.name}: ${list}. Accepted: ${[...known].join(', ')}.`,
        { details: { unknown, accepted: [...known] } },
      );
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidArguments(tool.name, parsed.error);
  const bad = illFormedField(parsed.data);
  if (bad !== undefined)
    throw toolError(
      'invalid_argument',
      `Invalid arguments for ${tool.name}: ${bad} contains a lone UTF-16 surrogate, which cannot be written as shown (it would become U+FFFD). Nothing was written; send well-formed text.`,
      { details: { fields: [bad] } },
    );
  const { dryRun, ...input } = parsed.data as Record<string, unknown>;
  return { input, dryRun: dryRun === true };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Well-formed UTF-16: the engine's own check where it has one (a native pass; the pattern steps per character). */
const wellFormed = (s: string): boolean =>
  (s as { isWellFormed?: () => boolean }).isWellFormed?.() ?? !LONE_SURROGATE.test(s);

/** The first string field (dotted path) that is not well-formed UTF-16, if any. */
function illFormedField(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return wellFormed(value) ? undefined : at || '(arguments)';
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const found = illFormedField(v, at ? `${at}.${k}` : k);
    if (found !== undefined) return found;
  }
  return undefined;
}

function invalidArguments(toolName: string, error: z.ZodError) {
  const fields = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`);
  return toolError('invalid_argument', `Invalid arguments for ${toolName}: ${fields.join('; ')}.`, {
    details: { fields },
  });
}
