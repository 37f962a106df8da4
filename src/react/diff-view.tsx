import { type ReactElement, useId, useMemo, useState } from 'react';
import { BATCH_LINES, firstLines, type NotShown } from './diff-batches.js';
import { Gap, Row } from './diff-row-view.js';
import { type DiffRow, diffRows, diffSegments } from './diff-rows.js';

/**
 * A unified diff as the terminal UI draws it: old/new line-number gutter,
 * removed/added lines with the changed words marked, hunk headers, and
 * unchanged runs collapsed behind a button (expandable when their text is known).
 * A big diff draws its first 1,000 lines and a button for each next 1,000.
 */
export function DiffView(props: { unifiedDiff: string; newText?: string; label?: string }): ReactElement {
  const { unifiedDiff, ...rest } = props;
  const rows = useMemo(() => diffRows(unifiedDiff), [unifiedDiff]);
  return <DiffRowsView {...rest} rows={rows} />;
}

/** DiffView over rows already parsed (a caller that also counts them parses once). */
export function DiffRowsView(props: { rows: DiffRow[]; newText?: string; label?: string }): ReactElement {
  const { rows, newText } = props;
  const segments = useMemo(
    () => diffSegments(rows, newText === undefined ? {} : { newText }),
    [rows, newText],
  );
  const width = useMemo(() => Math.max(3, String(maxLine(rows)).length), [rows]);
  // The limit belongs to these rows: another diff in the same place starts at one batch again.
  const [more, setMore] = useState({ rows, limit: BATCH_LINES });
  const limit = more.rows === rows ? more.limit : BATCH_LINES;
  const { shown, notShown } = useMemo(() => firstLines(segments, limit), [segments, limit]);
  const noteId = useId();
  return (
    <figure className="sa-diff" aria-label={props.label ?? 'Changes'}>
      {notShown.lines > 0 ? <NotShownNote id={noteId} notShown={notShown} /> : null}
      {shown.flatMap(({ index: i, segment: s }) =>
        s.kind === 'rows'
          ? s.rows.map((row, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows of one diff never reorder
              <Row key={`${i}-${j}`} row={row} width={width} />
            ))
          : [<Gap key={s.key} gap={s} width={width} />],
      )}
      {notShown.lines > 0 ? (
        <button
          type="button"
          className="sa-gap sa-show-more"
          aria-describedby={noteId}
          onClick={() => setMore({ rows, limit: limit + BATCH_LINES })}
        >
          ⋯ Show {count(Math.min(BATCH_LINES, notShown.lines))} more line
          {notShown.lines === 1 ? '' : 's'} ({count(notShown.lines)} not shown yet) ⋯
        </button>
      ) : null}
    </figure>
  );
}

const count = (n: number) => n.toLocaleString('en-US');

/** Said first, while part of the diff is not drawn: a reader never takes the start for the whole. */
function NotShownNote({ id, notShown }: { id: string; notShown: NotShown }): ReactElement {
  const n = notShown.lines;
  return (
    <output id={id} className="sa-note sa-not-shown">
      {count(n)} more line{n === 1 ? '' : 's'} of this diff (+{count(notShown.added)} −
      {count(notShown.removed)}) {n === 1 ? 'is' : 'are'} not shown yet; the button after the last line shown
      draws them, {count(BATCH_LINES)} at a time.
    </output>
  );
}

function maxLine(rows: DiffRow[]): number {
  let max = 0;
  for (const r of rows) max = Math.max(max, r.oldNo ?? 0, r.newNo ?? 0);
  return max;
}
