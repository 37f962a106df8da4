// rt33 helpers on top of the rt32 harness (imported, not copied).
import crypto from 'node:crypto';
import type { Tagged } from './rt32-harness.js';

export const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/**
 * The truth as a unified diff can show it: without a final newline, a kept line that ends or stops
 * ending the file changed its ending; with a BOM, a kept line that becomes or stops being line 1
 * changed (the BOM is shown as part of line 1).
 */
export function shownTruth(
  truth: Tagged[],
  oldCount: number,
  finalNl: boolean,
  bom: boolean,
  newFinalNl = finalNl,
): Tagged[] {
  const open = (last: boolean, nl: boolean) => last && !nl; // the unterminated last line
  return truth.map((t, k) =>
    (t.orig >= 0 && open(t.orig === oldCount - 1, finalNl) !== open(k === truth.length - 1, newFinalNl)) ||
    (bom && t.orig >= 0 && (t.orig === 0) !== (k === 0))
      ? { orig: -1, text: t.text }
      : t,
  );
}

/** Adds "\ No newline at end of file" after the old/new last line of a unified diff (as a careful model would). */
export function markNoNewline(udiff: string, oldCount: number, newCount: number): string {
  const out: string[] = [];
  let o = 0;
  let n = 0;
  for (const l of udiff.replace(/\n$/, '').split('\n')) {
    out.push(l);
    const m = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@/.exec(l);
    if (m) {
      o = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
      n = Number(m[4]) === 0 ? Number(m[3]) : Number(m[3]) - 1;
    } else if (l.startsWith('---') || l.startsWith('+++')) {
      /* header */
    } else if (l[0] === ' ') {
      o++;
      n++;
      if (o === oldCount && n === newCount) out.push('\\ No newline at end of file');
    } else if (l[0] === '-') {
      if (++o === oldCount) out.push('\\ No newline at end of file');
    } else if (++n === newCount) out.push('\\ No newline at end of file');
  }
  return `${out.join('\n')}\n`;
}

/**
 * Whether a diff's markers say the old side's last line was unterminated and the new side's
 * is not: then the new last line ends with a newline, as `patch` reads it (a marker follows a
 * `-` line, none follows a `+` or context line).
 */
export function addsFinalNewline(udiff: string): boolean {
  let old = false;
  let neu = false;
  let before = '';
  for (const l of udiff.split('\n')) {
    if (l.startsWith('\\')) {
      if (before[0] === '-') old = true;
      else if (before[0] === '+') neu = true;
      else old = neu = true;
    } else if (!l.startsWith('---') && !l.startsWith('+++')) before = l;
  }
  return old && !neu;
}

/** Drift a model's diff: strip trailing whitespace of context/removed lines, and shift every @@ by `shift`. */
export function drift(udiff: string, strip: boolean, shift: number): string {
  return udiff
    .split('\n')
    .map((l) => {
      const m = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(l);
      if (m && shift !== 0) {
        const s = (x: string) => Math.max(1, Number(x) + shift);
        return `@@ -${s(m[1]!)},${m[2]} +${s(m[3]!)},${m[4]} @@`;
      }
      if (strip && (l[0] === ' ' || l[0] === '-') && !l.startsWith('---')) return l.replace(/[ \t]+$/, '');
      return l;
    })
    .join('\n');
}

import fs from 'node:fs';
import path from 'node:path';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { aiSdkTools, answerApprovals } from '../../adapters/ai-sdk.js';
import { scriptedModel } from '../../examples/scripted-ai-model.js';
import type { FileSystemToolset } from '../../src/index.js';
import type { NativeCall } from './rt32-harness.js';

/**
 * rt32's nativeBatch with the decision per call left to `decide` (e.g. overrideArgs), and the tool
 * results returned by call id. (rt32's approves everything.)
 */
export async function nativeBatchWith(
  dir: string,
  toolset: FileSystemToolset,
  calls: NativeCall[],
  decide: (req: any, index: number) => any,
  file = 'f.txt',
): Promise<{ payloads: any[]; results: Map<string, any>; after: string }> {
  const tools = aiSdkTools(toolset, { approval: { mode: 'native' } });
  const m = scriptedModel([
    { calls: calls.map((c, n) => ({ id: `c${n}`, name: c.name, input: c.input })) },
    { text: 'done' },
  ]);
  const messages: ModelMessage[] = [{ role: 'user', content: 'go' }];
  const r1 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
  messages.push(...r1.response.messages);
  const payloads: any[] = [];
  messages.push(
    await answerApprovals(r1, {
      toolset,
      approve: async (req: any) => {
        payloads.push(structuredClone(req.payload));
        const idx = Number(String(req.toolCallId ?? req.callId ?? '').replace(/^c/, ''));
        return decide(req, Number.isNaN(idx) ? payloads.length - 1 : idx);
      },
    }),
  );
  const r2 = await generateText({ model: m.model as never, tools, messages, stopWhen: stepCountIs(3) });
  const results = new Map<string, any>();
  // The executed calls' results are what the model is shown next: read them from its prompts.
  for (const msg of [...messages, ...r2.response.messages, ...(m.prompts.flat() as any[])]) {
    if ((msg as any).role !== 'tool') continue;
    for (const part of (msg as any).content)
      if (part.type === 'tool-result') results.set(part.toolCallId, part.output);
  }
  return { payloads, results, after: fs.readFileSync(path.join(dir, file), 'utf8') };
}
