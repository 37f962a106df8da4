import type { ApprovalPayload, DeletePayload, GenericPayload } from '../contract/payloads.js';
import { arraySource } from './diff-view.js';
import { linesOf, numbered } from './render-write.js';
import type { Rendered } from './rendered.js';
import { fitWidth, sanitizeLine } from './sanitize.js';
import type { Style } from './style.js';

/** read, delete, move, copy, list: one clear block each; destructive parts in warning colour. */
export function renderOther(
  payload: Exclude<ApprovalPayload, { type: 'edit' | 'patch' | 'lines' | 'write' }>,
  style: Style,
  width: number,
): Rendered {
  const s = (t: string) => sanitizeLine(t);
  switch (payload.type) {
    case 'read':
      return {
        paths: [s(payload.path)],
        title: `Read: ${s(payload.path)} (${linesOf(payload.fileLines)}, ${payload.fileBytes} bytes)`,
        warnings: [],
        body: arraySource([
          `The agent wants to read ${s(payload.path)}${payload.fileExists ? '' : ' (it does not exist)'}.`,
        ]),
      };
    case 'delete':
      return renderDelete(payload, style, width);
    case 'move':
    case 'copy': {
      const tree = directoryMove(payload);
      if (tree) return renderDirectoryMove(payload, tree, style, width);
      const verb = payload.type === 'move' ? 'Move' : 'Copy';
      const link = payload.symlink ? ` (symbolic link → ${s(payload.symlink.target)})` : '';
      const warnings = payload.destinationExists
        ? [`⚠ ${s(payload.destination)} exists and will be overwritten.`]
        : [];
      return {
        paths: [s(payload.source), s(payload.destination)],
        title: `${verb}: ${s(payload.source)} → ${s(payload.destination)}${link || ` (${payload.fileBytes} bytes)`}`,
        warnings,
        body: arraySource([
          payload.symlink
            ? `${verb} the link ${s(payload.source)} to ${s(payload.destination)}; it will point to ${s(payload.symlink.targetAfter ?? payload.symlink.target)}.`
            : `${verb} ${s(payload.source)} to ${s(payload.destination)}.`,
        ]),
      };
    }
    case 'list':
      return {
        paths: [s(payload.path)],
        title: `List: ${s(payload.path)} (${s(payload.pattern)})`,
        warnings: [],
        body: arraySource([`List files matching ${s(payload.pattern)} under ${s(payload.path)}.`]),
      };
    case 'generic':
      return renderGeneric(payload, width);
  }
}

/** What a directory move's payload adds: the entries (capped), their number, links that will point elsewhere. */
export interface DirectoryMoveInfo {
  entries: string[];
  entryCount: number;
  links: Array<{ path: string; target: string; targetBefore: string; targetAfter: string }>;
}

/** The directory part of a move payload, when it moves a directory (checked, not trusted). */
export function directoryMove(payload: object): DirectoryMoveInfo | undefined {
  const { entries, entryCount, links } = payload as Record<string, unknown>;
  if (!Array.isArray(entries) || typeof entryCount !== 'number') return undefined;
  const okLinks = Array.isArray(links)
    ? links.filter(
        (l): l is DirectoryMoveInfo['links'][number] =>
          typeof l === 'object' &&
          l !== null &&
          ['path', 'target', 'targetBefore', 'targetAfter'].every(
            (k) => typeof (l as Record<string, unknown>)[k] === 'string',
          ),
      )
    : [];
  return { entries: entries.map(String), entryCount, links: okLinks };
}

/** Entries listed on screen before "… N more". */
const SHOWN_ENTRIES = 20;

function renderDirectoryMove(
  payload: { source: string; destination: string },
  tree: DirectoryMoveInfo,
  style: Style,
  width: number,
): Rendered {
  const s = (t: string) => sanitizeLine(t);
  const shown = tree.entries.slice(0, SHOWN_ENTRIES);
  const body = shown.map((e) => fitWidth(`  ${s(e)}`, width));
  const more = tree.entryCount - shown.length;
  if (more > 0) body.push(style.dim(`  … ${more} more entr${more === 1 ? 'y' : 'ies'}`));
  const warnings = tree.links.map(
    (l) =>
      `⚠ link ${s(l.path)} (→ ${s(l.target)}) will point to ${s(l.targetAfter)} instead of ${s(l.targetBefore)}.`,
  );
  const n = tree.entryCount;
  return {
    paths: [s(payload.source), s(payload.destination)],
    title: `Move directory: ${s(payload.source)} → ${s(payload.destination)} (directory, ${n} entr${n === 1 ? 'y' : 'ies'})`,
    warnings,
    body: arraySource([
      `Move the directory ${s(payload.source)} and everything in it to ${s(payload.destination)}:`,
      ...body,
    ]),
  };
}

function renderDelete(payload: DeletePayload, style: Style, width: number): Rendered {
  // No lines but some bytes: a binary file, whose preview is a note, not content. It is drawn
  // dim, bracketed and without line numbers so it cannot be taken for the file's text.
  const binary = payload.fileLines === 0 && payload.fileBytes > 0;
  if (payload.symlink) {
    // A link has no content of its own to show: never "[empty file]" (the links notes say what it is).
    const target = sanitizeLine(payload.symlink.target);
    return {
      paths: [sanitizeLine(payload.path)],
      title: `Delete: ${sanitizeLine(payload.path)} (symbolic link → ${target})`,
      warnings: [],
      body: arraySource([
        style.dim(`[symbolic link → ${target}: the link is removed, ${target} stays as it is]`),
      ]),
    };
  }
  const body =
    binary || payload.fileBytes === 0
      ? [style.dim(binary ? `[binary file, ${payload.fileBytes} bytes: content not shown]` : '[empty file]')]
      : numbered(payload.preview, style, width);
  if (payload.previewTruncated)
    body.push(style.dim(`… (${linesOf(payload.fileLines)} in all; preview shows the first ${body.length})`));
  const size = binary ? 'binary' : linesOf(payload.fileLines);
  return {
    paths: [sanitizeLine(payload.path)],
    title: `Delete: ${sanitizeLine(payload.path)} (${size}, ${payload.fileBytes} bytes)`,
    warnings: [`⚠ ${sanitizeLine(payload.path)} will be deleted.`],
    body: arraySource(body),
  };
}

/** Unknown or generic payloads: the description and the arguments as JSON, cut with a marker. */
export function renderGeneric(
  payload: { description: string; args?: unknown } & Partial<GenericPayload>,
  width: number,
): Rendered {
  const json = JSON.stringify(payload.args ?? {}, null, 2) ?? '';
  const lines = json.split('\n');
  const shown = lines.slice(0, 40).map((l) => fitWidth(sanitizeLine(l), width));
  if (lines.length > 40) shown.push(`… (${lines.length - 40} more lines of arguments)`);
  return { title: sanitizeLine(payload.description), warnings: [], body: arraySource(shown) };
}
