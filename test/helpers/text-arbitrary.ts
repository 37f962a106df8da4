import fc from 'fast-check';

/** Texts built from `line`s, each with its own line ending from `eol`, maybe a BOM, maybe no final newline. */
export function textArbitrary(line: fc.Arbitrary<string>, eol: fc.Arbitrary<string>, maxLines: number) {
  return fc
    .record({
      lines: fc.array(fc.tuple(line, eol), { maxLength: maxLines }),
      bom: fc.boolean(),
      finalNewline: fc.boolean(),
    })
    .map(({ lines, bom, finalNewline }) => {
      let text = lines.map(([l, e]) => l + e).join('');
      if (!finalNewline && lines.length > 0) text = text.slice(0, -lines.at(-1)![1].length);
      return (bom ? '\uFEFF' : '') + text;
    });
}
