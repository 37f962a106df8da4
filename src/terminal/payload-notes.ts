import type { ApprovalPayload } from '../contract/payloads.js';
import { lookAlikeWarnings } from '../text/look-alikes.js';
import { sanitizeLine } from './sanitize.js';

const s = (t: string) => sanitizeLine(t);

/** What an operation does through the path it names, by payload type. */
const THROUGH: Partial<Record<ApprovalPayload['type'], string>> = {
  write: 'writes go to',
  edit: 'edits go to',
  patch: 'the patch goes to',
  lines: 'edits go to',
  read: 'reads come from',
  delete: 'the delete acts on',
  move: 'the move acts on',
  copy: 'the copy reads',
  list: 'the listing shows',
};

/**
 * The links a payload acts through, in words, the same on every surface
 * (terminal, web card, MCP dialog): the link, its target, and what the
 * operation does to each. A delete, move or copy of a link acts on the link
 * itself; any other call whose path leads through links acts on the target.
 */
export function linkNotes(payload: ApprovalPayload): string[] {
  const notes: string[] = [];
  const path = s(payload.path);
  if ('symlink' in payload && payload.symlink) {
    const target = s(payload.symlink.target);
    if (payload.type === 'delete')
      notes.push(`⚠ ${path} is a link → ${target}: the link is deleted; ${target} is not touched.`);
    else if (payload.type === 'move' || payload.type === 'copy') {
      const after = s(payload.symlink.targetAfter ?? payload.symlink.target);
      const what = payload.type === 'move' ? 'moved' : 'copied';
      notes.push(`⚠ ${s(payload.source)} is a link → ${target}: the link itself is ${what}, not ${target}.`);
      notes.push(
        after === target
          ? `⚠ ${s(payload.destination)} will be a link → ${after}.`
          : `⚠ ${s(payload.destination)} will be a link → ${after} (not ${target}: the link is relative).`,
      );
    }
  }
  if (payload.resolved && payload.resolved.path !== payload.path) {
    const via = payload.resolved.via.map(s);
    const chain = via.length > 1 ? ` (via ${via.join(' → ')})` : '';
    notes.push(
      `⚠ ${path} is a link → ${THROUGH[payload.type] ?? 'the call acts on'} ${s(payload.resolved.path)}${chain}.`,
    );
  }
  return notes;
}

/** How much changed text is scanned for look-alike letters (the rest is still marked where drawn). */
const SCAN_BUDGET = 1 << 20;

/** The changed lines of a diff (added or removed), within the scan budget. */
function* changedLines(unifiedDiff: string): Generator<string> {
  let scanned = 0;
  for (let start = 0; start < unifiedDiff.length && scanned < SCAN_BUDGET; ) {
    let end = unifiedDiff.indexOf('\n', start);
    if (end === -1) end = unifiedDiff.length;
    const c = unifiedDiff[start];
    if (
      (c === '+' || c === '-') &&
      !unifiedDiff.startsWith('+++ ', start) &&
      !unifiedDiff.startsWith('--- ', start)
    ) {
      const line = unifiedDiff.slice(start + 1, Math.min(end, start + 1 + SCAN_BUDGET - scanned));
      scanned += line.length;
      yield line;
    }
    start = end + 1;
  }
}

/** Whether every character of `text` is ASCII (one regex pass; this module also runs in browsers). */
const isAscii = (text: string) => text.length <= 1 << 22 && /^[\x00-\x7f]*$/.test(text);

/** Look-alike warnings for the paths and the changed (or new) text of a payload. */
export function lookAlikeNotes(payload: ApprovalPayload): string[] {
  const texts: Iterable<string>[] = [[payload.path]];
  if (payload.type === 'move' || payload.type === 'copy') texts.push([payload.source, payload.destination]);
  // An ASCII diff has no look-alike letters: one pass says so without a scan per line.
  if ('unifiedDiff' in payload && payload.unifiedDiff && !isAscii(payload.unifiedDiff))
    texts.push(changedLines(payload.unifiedDiff));
  else if (payload.type === 'write') texts.push(payload.content.slice(0, SCAN_BUDGET).split('\n'));
  return lookAlikeWarnings(
    (function* () {
      for (const t of texts) yield* t;
    })(),
    s,
  );
}
