import { type ReactElement, useMemo } from 'react';
import { Gap, Row } from './diff-row-view.js';
import { type DiffRow, diffRows, diffSegments } from './diff-rows.js';

/**
 * A unified diff as the terminal UI draws it: old/new line-number gutter,
 * removed/added lines with the changed words marked, hunk headers, and
 * unchanged runs collapsed behind a button (expandable when their text is known).
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
  return (
    <figure className="sa-diff" aria-label={props.label ?? 'Changes'}>
      {segments.flatMap((s, i) =>
        s.kind === 'rows'
          ? s.rows.map((row, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows of one diff never reorder
              <Row key={`${i}-${j}`} row={row} width={width} />
            ))
          : [<Gap key={s.key} gap={s} width={width} />],
      )}
    </figure>
  );
}

function maxLine(rows: DiffRow[]): number {
  let max = 0;
  for (const r of rows) max = Math.max(max, r.oldNo ?? 0, r.newNo ?? 0);
  return max;
}
