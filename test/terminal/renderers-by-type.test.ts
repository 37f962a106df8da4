import { describe, expect, it } from 'vitest';
import type { ApprovalPayload } from '../../src/contract/payloads.js';
import { allLines } from '../../src/terminal/diff-view.js';
import { renderPayload } from '../../src/terminal/render-payload.js';
import { colorWanted, createStyle, stripAnsi } from '../../src/terminal/style.js';

const plain = createStyle(false);
const color = createStyle(true);
const ANSI = /\u001b\[/;
const base = { mount: '/', baseSha256: 'abc' };
const diff = '--- a/m.ts\n+++ b/m.ts\n@@ -1,3 +1,3 @@\n a\n-const x = 1;\n+const x = 2;\n c\n';
const diffStats = { unifiedDiff: diff, diffLines: 7, added: 1, removed: 1 };

/** One payload of every type, with what its block must say (colour off). */
const cases: Array<[string, ApprovalPayload, string, string]> = [
  [
    'write (new)',
    {
      type: 'write',
      ...base,
      description: 'Create /n.md',
      path: '/n.md',
      content: 'hello\n',
      contentLines: 1,
      contentBytes: 6,
      preview: 'hello\n',
      previewTruncated: false,
      fileExists: false,
      existingLines: null,
      existingBytes: null,
    },
    'Write: /n.md (1 line, 6 B, new file)',
    '1 │ hello',
  ],
  [
    'write (overwrite)',
    {
      type: 'write',
      ...base,
      description: 'Overwrite /m.ts',
      path: '/m.ts',
      content: 'a\nconst x = 2;\nc\n',
      contentLines: 3,
      contentBytes: 17,
      preview: '',
      previewTruncated: false,
      fileExists: true,
      existingLines: 1,
      existingBytes: 2,
      ...diffStats,
    },
    'Write: /m.ts (3 lines, 17 B, overwrite)  +1 −1',
    '-const x = [-1-];',
  ],
  [
    'edit',
    {
      type: 'edit',
      ...base,
      ...diffStats,
      description: 'Edit /m.ts',
      path: '/m.ts',
      oldString: '1',
      newString: '2',
      replaceAll: false,
      matchLine: 2,
      matchCount: 1,
      matchLevel: 'exact',
      contextBefore: 'a',
      contextAfter: 'c',
      fileLines: 3,
      fileBytes: 17,
    },
    'Edit: /m.ts (line 2)  +1 −1',
    '+const x = {+2+};',
  ],
  [
    'patch',
    {
      type: 'patch',
      ...base,
      ...diffStats,
      description: 'Patch /m.ts',
      path: '/m.ts',
      requestedDiff: diff,
      relocated: true,
      hunks: 1,
      fileExists: true,
      fileLines: 3,
      fileBytes: 17,
    },
    'Patch: /m.ts (1 hunk)  +1 −1',
    '@@ -1,3 +1,3 @@',
  ],
  [
    'lines',
    {
      type: 'lines',
      ...base,
      ...diffStats,
      description: 'Edit lines /m.ts',
      path: '/m.ts',
      operations: 2,
      summary: ['replace_line 2'],
      fileLines: 3,
      fileBytes: 17,
    },
    'Edit lines: /m.ts (2 operations)  +1 −1',
    '  1   1  a',
  ],
  [
    'read',
    {
      type: 'read',
      ...base,
      description: 'Read /s.env',
      path: '/s.env',
      fileLines: 4,
      fileBytes: 80,
      fileExists: true,
    },
    'Read: /s.env (4 lines, 80 bytes)',
    'The agent wants to read /s.env.',
  ],
  [
    'delete',
    {
      type: 'delete',
      ...base,
      description: 'Delete /d.txt',
      path: '/d.txt',
      fileLines: 1,
      fileBytes: 4,
      preview: 'bye\n',
      previewTruncated: false,
    },
    'Delete: /d.txt (1 line, 4 bytes)',
    '1 │ bye',
  ],
  [
    'move',
    {
      type: 'move',
      ...base,
      description: 'Move',
      path: '/a',
      source: '/a',
      destination: '/b',
      destinationMount: '/',
      destinationExists: true,
      overwrite: true,
      fileBytes: 3,
    },
    'Move: /a → /b (3 bytes)',
    'Move /a to /b.',
  ],
  [
    'copy',
    {
      type: 'copy',
      ...base,
      description: 'Copy',
      path: '/a',
      source: '/a',
      destination: '/c',
      destinationMount: '/',
      destinationExists: false,
      overwrite: false,
      fileBytes: 3,
    },
    'Copy: /a → /c (3 bytes)',
    'Copy /a to /c.',
  ],
  [
    'list',
    { type: 'list', ...base, description: 'List', path: '/src', pattern: '**/*.ts' },
    'List: /src (**/*.ts)',
    'List files matching **/*.ts under /src.',
  ],
  [
    'generic',
    {
      type: 'generic',
      ...base,
      description: 'deploy(env="prod")',
      path: '',
      toolName: 'deploy',
      args: { env: 'prod' },
    },
    'deploy(env="prod")',
    '"env": "prod"',
  ],
];

describe('renderers, one per payload type', () => {
  it.each(cases)('%s: plain text without colour codes', (_name, payload, title, bodyText) => {
    const r = renderPayload(payload, plain, 80);
    expect(r.title).toBe(title);
    const body = allLines(r.body);
    expect(body.join('\n')).toContain(bodyText);
    expect([r.title, ...r.warnings, ...body].some((l) => ANSI.test(l))).toBe(false);
    for (const l of body) expect([...l].length).toBeLessThanOrEqual(80);
  });

  it.each(cases)('%s: with colour on, the same text underneath', (_name, payload) => {
    const colored = renderPayload(payload, color, 80);
    const uncolored = renderPayload(payload, plain, 80);
    const lines = allLines(colored.body);
    const isDiff = 'unifiedDiff' in payload;
    if (isDiff || payload.type === 'write' || payload.type === 'delete')
      expect([colored.title, ...lines].some((l) => ANSI.test(l))).toBe(true);
    // Word highlights are marked differently ({+ +} without colour); everything else is identical.
    const unmark = (s: string) => s.replace(/\{\+|\+\}|\[-|-\]/g, '');
    expect(lines.map((l) => unmark(stripAnsi(l)))).toEqual(allLines(uncolored.body).map(unmark));
    expect(stripAnsi(colored.title)).toBe(uncolored.title);
  });

  it('warnings: overwrite, delete, move onto an existing file, relocated hunks', () => {
    const warningsOf = (name: string) =>
      renderPayload(cases.find((c) => c[0] === name)![1], plain, 80).warnings.join(' | ');
    expect(warningsOf('write (overwrite)')).toBe(
      '⚠ This will overwrite an existing file (was 1 line, now 3 lines).',
    );
    expect(warningsOf('delete')).toContain('/d.txt will be deleted');
    expect(warningsOf('move')).toContain('/b exists and will be overwritten');
    expect(warningsOf('patch')).toMatch(/relocated/);
  });

  it('an unknown payload type falls back to its description and the arguments, cut with a marker', () => {
    const args = { items: Array.from({ length: 60 }, (_, i) => `item ${i}`), long: 'x'.repeat(300) };
    const r = renderPayload(
      { type: 'teleport', description: 'Teleport \u001b[2J now' } as never,
      plain,
      80,
      args,
    );
    expect(r.title).toBe('Teleport ␛[2J now');
    const body = allLines(r.body);
    expect(body.at(-1)).toMatch(/… \(\d+ more lines of arguments\)/);
    expect(body.every((l) => [...l].length <= 80)).toBe(true);
  });

  it('hunk headers are sanitised too', () => {
    const evil = '--- a/x\n+++ b/x\n@@ -1 +1 @@ \u001b[31mfake\n-a\n+b\n';
    const r = renderPayload({ ...cases[3]![1], unifiedDiff: evil } as ApprovalPayload, color, 80);
    expect(stripAnsi(allLines(r.body)[0]!)).toBe('@@ -1 +1 @@ ␛[31mfake');
  });

  it('tabs are expanded against the whole line, also inside word highlights', () => {
    const tabbed = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\tb = 1\n+a\tb = 2\n';
    const r = renderPayload({ ...cases[3]![1], unifiedDiff: tabbed } as ApprovalPayload, plain, 80);
    const [del, add] = allLines(r.body).slice(1);
    expect(del).toContain('-a→  b = [-1-]');
    expect(add).toContain('+a→  b = {+2+}');
  });
});

describe('colour choice', () => {
  it('honours NO_COLOR and FORCE_COLOR (FORCE_COLOR=0 turns it off)', () => {
    expect(colorWanted({ isTTY: true }, {})).toBe(true);
    expect(colorWanted({ isTTY: false }, {})).toBe(false);
    expect(colorWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorWanted({ isTTY: true }, { NO_COLOR: '1', FORCE_COLOR: '3' })).toBe(true);
    expect(colorWanted({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });
});

describe('width', () => {
  it('word marks without colour never push a line past the width', () => {
    const a = `const value = ${'a '.repeat(25)}end;`;
    const b = `const value = ${'b '.repeat(25)}end;`;
    const d = `--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${a}\n+${b}\n`;
    const r = renderPayload({ ...cases[3]![1], unifiedDiff: d } as ApprovalPayload, plain, 80);
    const [del, add] = allLines(r.body).slice(1);
    for (const l of [del!, add!]) expect([...l].length).toBeLessThanOrEqual(80);
    expect(add).toBe(`      1 +${b}`); // shown whole, unmarked
  });
});
