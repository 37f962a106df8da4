import { type ReactElement, type ReactNode, useMemo } from 'react';
import { COARSE_DIFF_WARNING, diffHeading } from '../approval/diff-heading.js';
import type { ApprovalPayload } from '../contract/payloads.js';
import { linkNotes, lookAlikeNotes } from '../terminal/payload-notes.js';
import { directoryMove } from '../terminal/render-other.js';
import { type DiffRow, diffRows, splitLines } from './diff-rows.js';
import { DiffRowsView } from './diff-view.js';
import { FilePreview } from './file-preview.js';
import { visibleText } from './visible-text.js';

const linesOf = (n: number) => `${n.toLocaleString('en')} line${n === 1 ? '' : 's'}`;
const size = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Shown {
  title: string;
  /** +N −M counted from the diff drawn (never from the payload's own counts). */
  stats?: { added: number; removed: number };
  warnings: string[];
  body: ReactNode;
}

function statsOf(rows: DiffRow[]) {
  let added = 0;
  let removed = 0;
  for (const r of rows) {
    if (r.kind === 'add') added++;
    else if (r.kind === 'del') removed++;
  }
  return { added, removed };
}

/** What the terminal UI shows for each payload type: title, warnings, body. */
export function showPayload(payload: ApprovalPayload): Shown {
  const path = visibleText(payload.path);
  const coarse = 'diffCoarse' in payload && payload.diffCoarse;
  switch (payload.type) {
    case 'edit':
    case 'patch':
    case 'lines': {
      const { title, warnings } = diffHeading(payload, path);
      // Parsed once: the stats and the view count the same rows.
      const rows = diffRows(payload.unifiedDiff);
      return {
        title,
        stats: statsOf(rows),
        warnings,
        body: <DiffRowsView rows={rows} label={`Changes to ${path}`} />,
      };
    }
    case 'write': {
      const lines = `${linesOf(payload.contentLines)}, ${size(payload.contentBytes)}`;
      if (!payload.fileExists)
        return {
          title: `Write: ${path} (${lines}, new file)`,
          warnings: [],
          body: <FilePreview content={payload.content} label={`New file ${path}`} />,
        };
      const was = payload.existingLines === null ? '' : `was ${linesOf(payload.existingLines)}, `;
      const warnings = [
        `⚠ This will overwrite an existing file (${was}now ${linesOf(payload.contentLines)}).`,
      ];
      if (coarse) warnings.push(COARSE_DIFF_WARNING);
      const rows = payload.unifiedDiff ? diffRows(payload.unifiedDiff) : undefined;
      return {
        title: `Write: ${path} (${lines}, overwrite)`,
        ...(rows ? { stats: statsOf(rows) } : {}),
        warnings,
        body: rows ? (
          <DiffRowsView rows={rows} newText={payload.content} label={`Changes to ${path}`} />
        ) : (
          <FilePreview content={payload.content} label={`New content of ${path}`} />
        ),
      };
    }
    case 'delete':
      if (payload.symlink)
        return {
          title: `Delete: ${path} (symbolic link → ${visibleText(payload.symlink.target)})`,
          warnings: [],
          body: (
            <p className="sa-note">
              [symbolic link → {visibleText(payload.symlink.target)}: the link is removed,{' '}
              {visibleText(payload.symlink.target)} stays as it is]
            </p>
          ),
        };
      return {
        title: `Delete: ${path} (${linesOf(payload.fileLines)}, ${payload.fileBytes} bytes)`,
        warnings: [`⚠ ${path} will be deleted.`],
        body: (
          <>
            <FilePreview content={payload.preview} label={`Content of ${path}`} kind="del" />
            {payload.previewTruncated ? (
              <p className="sa-note">
                … ({linesOf(payload.fileLines)} in all; preview shows the first{' '}
                {splitLines(payload.preview).length})
              </p>
            ) : null}
          </>
        ),
      };
    case 'move':
    case 'copy': {
      const verb = payload.type === 'move' ? 'Move' : 'Copy';
      const from = visibleText(payload.source);
      const to = visibleText(payload.destination);
      const tree = directoryMove(payload);
      if (tree) {
        const shown = tree.entries.slice(0, 50);
        const more = tree.entryCount - shown.length;
        const n = tree.entryCount;
        return {
          title: `Move directory: ${from} → ${to} (directory, ${n} entr${n === 1 ? 'y' : 'ies'})`,
          warnings: tree.links.map(
            (l) =>
              `⚠ link ${visibleText(l.path)} (→ ${visibleText(l.target)}) will point to ${visibleText(l.targetAfter)} instead of ${visibleText(l.targetBefore)}.`,
          ),
          body: (
            <>
              <p className="sa-note">
                Move the directory {from} and everything in it to {to}:
              </p>
              <ul className="sa-entries">
                {shown.map((e) => (
                  <li key={e}>{visibleText(e)}</li>
                ))}
                {more > 0 ? <li className="sa-note">… {more} more</li> : null}
              </ul>
            </>
          ),
        };
      }
      const link = payload.symlink;
      return {
        title: `${verb}: ${from} → ${to}${link ? ` (symbolic link → ${visibleText(link.target)})` : ` (${payload.fileBytes} bytes)`}`,
        warnings: payload.destinationExists ? [`⚠ ${to} exists and will be overwritten.`] : [],
        body: (
          <p className="sa-note">
            {link
              ? `${verb} the link ${from} to ${to}; it will point to ${visibleText(link.targetAfter ?? link.target)}.`
              : `${verb} ${from} to ${to}.`}
          </p>
        ),
      };
    }
    case 'read':
      return {
        title: `Read: ${path} (${linesOf(payload.fileLines)}, ${payload.fileBytes} bytes)`,
        warnings: [],
        body: (
          <p className="sa-note">
            The agent wants to read {path}
            {payload.fileExists ? '' : ' (it does not exist)'}.
          </p>
        ),
      };
    case 'list':
      return {
        title: `List: ${path} (${visibleText(payload.pattern)})`,
        warnings: [],
        body: (
          <p className="sa-note">
            List files matching {visibleText(payload.pattern)} under {path}.
          </p>
        ),
      };
    default:
      return genericShown(payload);
  }
}

/** Unknown or generic payloads: the description and the arguments as JSON. */
function genericShown(payload: { description: string; args?: unknown }): Shown {
  const json = JSON.stringify(payload.args ?? {}, null, 2) ?? '';
  return {
    title: visibleText(payload.description),
    warnings: [],
    body: (
      <pre className="sa-args">
        {json
          .split('\n')
          .map((l) => visibleText(l))
          .join('\n')}
      </pre>
    ),
  };
}

/** One payload: title with +/− stats, warnings, and the body for its type. */
export function PayloadView({ payload }: { payload: ApprovalPayload }): ReactElement {
  // A parent's re-render (a note typed, a button focused) does not parse the diff again.
  const byType = useMemo(() => showPayload(payload), [payload]);
  // The notes every surface shares: links acted through, look-alike letters.
  const shown = {
    ...byType,
    warnings: [...linkNotes(payload), ...byType.warnings, ...lookAlikeNotes(payload)],
  };
  return (
    <div className="sa-payload" data-payload-type={payload.type}>
      <div className="sa-title">
        <span>{shown.title}</span>
        {shown.stats ? (
          <span className="sa-stats">
            <span className="sa-plus">+{shown.stats.added}</span>{' '}
            <span className="sa-minus">−{shown.stats.removed}</span>
          </span>
        ) : null}
      </div>
      {shown.warnings.map((w) => (
        <div key={w} className="sa-warning" role="alert">
          {w}
        </div>
      ))}
      {shown.body}
    </div>
  );
}
