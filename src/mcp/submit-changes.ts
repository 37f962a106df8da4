import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type {
  CallToolResult,
  ElicitRequestFormParams,
  ElicitResult,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ChangeSet } from '../staging/change-set.js';
import type { FileDecision, ReviewDecisions } from '../staging/decisions.js';
import { hunkDiff } from '../staging/hunk-diff.js';
import type { Reviewer } from '../staging/staging-area.js';
import {
  SUBMIT_CHANGES_DESCRIPTION,
  SUBMIT_CHANGES_NAME,
  SubmitChangesInput,
  submitChanges,
} from '../staging/submit-changes.js';
import { sanitizeLine } from '../terminal/sanitize.js';
import { boundaryAtOrBefore } from '../text/text-slices.js';
import type { FileSystemToolset } from '../tools/filesystem-toolset.js';
import { escapeMarkdown, fenceFor } from './payload-text.js';

export interface McpReviewOptions {
  /** Who reviews when the client cannot be asked by elicitation (e.g. terminalReviewer()); default: nothing is applied. */
  reviewer?: Reviewer;
  /** Ask through an elicitation form when the client supports it (default true). */
  elicitation?: boolean;
  /** How long to wait for the person (default 30 minutes). */
  timeoutMs?: number;
}

/** Per-change checkboxes are offered for at most this many changes in one form (per-file choices beyond). */
const MAX_CHANGE_FIELDS = 60;
/** Diff text in the form message is capped: the form must stay usable; stats stay exact. */
const MAX_MESSAGE_CHARS = 60_000;

const NOBODY_NOTE =
  'Nobody could review the changes (no elicitation support and no reviewer configured); nothing was applied.';

const rejectAll = (set: ChangeSet, note: string): ReviewDecisions => ({
  changeSetId: set.id,
  files: Object.fromEntries(set.files.map((f) => [f.path, { action: 'reject' as const }])),
  note,
});

/**
 * A file's hunks as the person sees them in a Markdown-rendering host: every row
 * through the visibility rule (changed rows with whitespace marks) inside a fence
 * longer than any backtick run, so file content can neither hide rows nor become markup.
 */
function diffBlock(f: ChangeSet['files'][number]): string {
  const rows = f.hunks
    .map((_, j) => hunkDiff(f, j))
    .join('')
    .replace(/\n$/, '')
    .split('\n')
    .map((row) => sanitizeLine(row, 4, row.startsWith('+') || row.startsWith('-')));
  const block = rows.join('\n');
  const fence = fenceFor(block);
  return `${fence}diff\n${block}\n${fence}`;
}

/** The review as one elicitation form: per file accept/reject and a note, per change a checkbox. */
function reviewElicitation(set: ChangeSet, summary?: string): ElicitRequestFormParams {
  const properties: Record<string, unknown> = {};
  let changeFields = 0;
  const parts: string[] = [
    `Review ${set.stats.files} changed file(s) (+${set.stats.added} −${set.stats.removed}). Only what you keep is written.`,
    ...(summary ? [`The agent says: ${escapeMarkdown(sanitizeLine(summary))}`] : []),
  ];
  set.files.forEach((f, i) => {
    const label = `${f.movedFrom ? `${f.movedFrom} → ` : ''}${f.path} (${f.status}, +${f.added} −${f.removed})`;
    parts.push('', `## ${i + 1}. ${escapeMarkdown(sanitizeLine(label))}`, diffBlock(f));
    properties[`file_${i}`] = {
      type: 'string',
      title: label,
      enum: ['accept', 'reject'],
      default: 'accept',
    };
    if (f.hunks.length > 1 && changeFields + f.hunks.length <= MAX_CHANGE_FIELDS) {
      f.hunks.forEach((_, j) => {
        properties[`file_${i}_change_${j}`] = {
          type: 'boolean',
          title: `${f.path}: keep change ${j + 1} of ${f.hunks.length}`,
          default: true,
        };
      });
      changeFields += f.hunks.length;
    }
    properties[`note_${i}`] = {
      type: 'string',
      title: `Note on ${f.path} (sent to the agent)`,
      maxLength: 2000,
    };
  });
  let message = parts.join('\n');
  if (message.length > MAX_MESSAGE_CHARS)
    message = `${message.slice(0, boundaryAtOrBefore(message, MAX_MESSAGE_CHARS))}\n[… diff cut here; the file list and the form are complete]`;
  return {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties } as ElicitRequestFormParams['requestedSchema'],
  };
}

/** The person's form answers as decisions; a declined or cancelled form applies nothing. */
function decisionsFromReview(set: ChangeSet, result: ElicitResult): ReviewDecisions {
  if (result.action !== 'accept' || !result.content)
    return rejectAll(set, 'The person closed the review without applying; nothing was applied.');
  const answers = result.content as Record<string, unknown>;
  const files: Record<string, FileDecision> = {};
  set.files.forEach((f, i) => {
    const note =
      typeof answers[`note_${i}`] === 'string' && answers[`note_${i}`]
        ? { note: String(answers[`note_${i}`]) }
        : {};
    if (answers[`file_${i}`] === 'reject') {
      files[f.path] = { action: 'reject', ...note };
      return;
    }
    const kept = f.hunks.map((_, j) => answers[`file_${i}_change_${j}`] !== false);
    files[f.path] = kept.every(Boolean)
      ? { action: 'accept', ...note }
      : {
          action: 'hunks',
          hunks: Object.fromEntries(f.hunks.map((h, j) => [h.id, kept[j] ? 'accept' : 'reject'] as const)),
          ...note,
        };
  });
  return { changeSetId: set.id, files };
}

/**
 * `submit_changes` for the MCP server: the toolset is switched to staging, and
 * the call shows the set to the person (elicitation form, else the configured
 * reviewer, else nothing is applied) and returns the summary.
 */
export function submitChangesTool(server: Server, toolset: FileSystemToolset, options: McpReviewOptions) {
  const staging = toolset.stage();
  const { $schema: _drop, ...schema } = z.toJSONSchema(SubmitChangesInput, { io: 'input' }) as Record<
    string,
    unknown
  >;
  const tool: Tool = {
    name: SUBMIT_CHANGES_NAME,
    description: SUBMIT_CHANGES_DESCRIPTION,
    inputSchema: { ...schema, type: 'object' } as Tool['inputSchema'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  };
  const reviewer: Reviewer = async (set, context) => {
    const canElicit = options.elicitation !== false && !!server.getClientCapabilities()?.elicitation?.form;
    if (canElicit) {
      try {
        const result = await server.elicitInput(reviewElicitation(set, context?.summary), {
          timeout: options.timeoutMs ?? 30 * 60_000,
        });
        return decisionsFromReview(set, result);
      } catch (error) {
        return rejectAll(
          set,
          `The review could not be completed (${error instanceof Error ? error.message : String(error)}); nothing was applied.`,
        );
      }
    }
    return options.reviewer ? options.reviewer(set, context) : rejectAll(set, NOBODY_NOTE);
  };
  const call = async (args: unknown): Promise<CallToolResult> => {
    const input = SubmitChangesInput.safeParse(args ?? {});
    if (!input.success)
      return {
        isError: true,
        content: [{ type: 'text', text: `error invalid_argument: ${input.error.message}` }],
      };
    const result = await submitChanges(staging, reviewer, input.data);
    return {
      ...(result.ok ? {} : { isError: true }),
      content: [{ type: 'text', text: result.summary }],
      structuredContent: {
        ok: result.ok,
        files: result.files,
        ...(result.ok ? {} : { error: result.error }),
      },
    };
  };
  return { tool, call };
}
