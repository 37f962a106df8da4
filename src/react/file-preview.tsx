import { type ReactElement, useState } from 'react';
import { splitLines } from './diff-rows.js';
import { visibleText } from './visible-text.js';

/** A new file's content with line numbers; long files show their head and a button for the rest. */
export function FilePreview(props: {
  content: string;
  head?: number;
  label?: string;
  /** 'del': content about to be removed (a delete), drawn as removed lines. */
  kind?: 'add' | 'del';
}): ReactElement {
  const kind = props.kind ?? 'add';
  const lines = splitLines(props.content);
  const head = props.head ?? 30;
  const [all, setAll] = useState(lines.length <= head + 5);
  const shown = all ? lines : lines.slice(0, head);
  const width = Math.max(3, String(lines.length).length);
  return (
    <figure className="sa-diff sa-preview" aria-label={props.label ?? 'New content'}>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines of one file never reorder
        <div key={i} className={`sa-row sa-${kind}`} data-kind={kind}>
          <span className="sa-no">{String(i + 1).padStart(width)}</span>
          <span className="sa-sign" aria-hidden="true">
            {kind === 'add' ? '+' : '-'}
          </span>
          <span className="sa-text">{visibleText(line, true)}</span>
        </div>
      ))}
      {lines.length === 0 ? <div className="sa-gap sa-gap-static">(empty file)</div> : null}
      {all ? null : (
        <button type="button" className="sa-gap" onClick={() => setAll(true)}>
          ⋯ Show all {lines.length} lines ⋯
        </button>
      )}
    </figure>
  );
}
