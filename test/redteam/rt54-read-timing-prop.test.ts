// Red team rt54: the payload diff written when first read, read at odd times (never in the
// callback, after the write, after a second call on the file, from another task, through a
// getter copied off the payload, after the callback overwrote its copy), on awkward texts.
// Oracle: the diff applied strictly to the bytes before must give the bytes written, and
// diffLines / added / removed must agree with the text.
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { applyStrict, awkwardText, countProblems, project, sha, sleep } from './rt54-helpers.js';

type DiffPayload = {
  unifiedDiff: string;
  diffLines: number;
  added: number;
  removed: number;
  diffCoarse?: boolean;
};

const MODES = [
  'in-callback',
  'after-return',
  'after-second-call',
  'other-toolset-changed',
  'async-task',
  'getter-copy',
  'overwritten-copy',
  'json-late',
  'clone-after-decision',
  'frozen',
] as const;
type Mode = (typeof MODES)[number];

const modelView = (t: string) => t.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');

/** Builds the tool call for a generated case; undefined when the case makes no call. */
async function callFor(
  tools: FileSystemToolset,
  tool: string,
  before: string,
  after: string,
  pick: { from: number; len: number; all: boolean },
): Promise<Record<string, unknown> | undefined> {
  const view = modelView(before);
  if (tool === 'write_file') return { path: '/f.txt', content: after };
  if (tool === 'edit_file') {
    if (view.length === 0) return undefined;
    const from = pick.from % view.length;
    const old = view.slice(from, from + 1 + (pick.len % 20));
    return { path: '/f.txt', old_string: old, new_string: after.slice(0, 30), replace_all: pick.all };
  }
  if (tool === 'patch_file') {
    const d = createTwoFilesPatch('/f.txt', '/f.txt', view, modelView(after), '', '', { context: 2 });
    return { path: '/f.txt', unified_diff: d, base_sha256: sha(before) };
  }
  // edit_lines: anchors from a hashed read.
  const r = await tools.callTool('read_file', { path: '/f.txt', hashes: true });
  if (!r.ok) return undefined;
  const rows = String((r.data as { content: string }).content)
    .split('\n')
    .filter((l) => /^\d+#[0-9a-f]+\|/.test(l));
  if (rows.length === 0) return undefined;
  const row = rows[pick.from % rows.length]!;
  const anchor = row.slice(0, row.indexOf('|'));
  const ops = [
    { op: 'replace_line', hash: anchor, content: after.slice(0, 40) },
    { op: 'insert_after', hash: anchor, content: after.slice(0, 40) },
    { op: 'delete_line', hash: anchor },
    { op: 'insert_before', hash: anchor, content: `${after.slice(0, 20)}\n` },
  ];
  return { path: '/f.txt', operations: [ops[pick.len % ops.length]], sanity: 'off' };
}

const tally = { wrote: 0 };

async function runCase(
  tool: string,
  before: string,
  after: string,
  pick: { from: number; len: number; all: boolean },
  mode: Mode,
): Promise<string[]> {
  const { dir } = project({ 'f.txt': before });
  const host = path.join(dir, 'f.txt');
  const beforeBytes = fs.readFileSync(host, 'utf8');
  const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  let readDiff: (() => string) | undefined;
  let other: DiffPayload | undefined;
  let late: Promise<string> | undefined;
  let asked = 0;
  const gated = new ApprovalToolset(tools, {
    approve: async (req) => {
      asked++;
      // Only the first request (the call under test) is captured; a second call just runs.
      if (asked > 1) return { approved: true };
      const p = req.payload as unknown as DiffPayload;
      other = p;
      if (mode === 'in-callback') {
        const d = p.unifiedDiff;
        readDiff = () => d;
      } else if (mode === 'after-return' || mode === 'after-second-call' || mode === 'other-toolset-changed')
        readDiff = () => p.unifiedDiff;
      else if (mode === 'async-task') {
        late = sleep(15).then(() => p.unifiedDiff);
        readDiff = () => '';
      } else if (mode === 'getter-copy') {
        const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(p)) as DiffPayload;
        readDiff = () => copy.unifiedDiff;
      } else if (mode === 'overwritten-copy') {
        const get = Object.getOwnPropertyDescriptor(p, 'unifiedDiff')?.get;
        const value = get ? undefined : p.unifiedDiff;
        try {
          (p as { unifiedDiff: string }).unifiedDiff = '--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-x\n+EVIL\n';
          delete (p as { unifiedDiff?: string }).unifiedDiff;
          Object.defineProperty(p, 'unifiedDiff', { get: () => 'EVIL', configurable: true });
        } catch {
          // a frozen copy, etc.
        }
        readDiff = () => (get ? get.call({}) : value!);
      } else if (mode === 'json-late') {
        readDiff = () => JSON.parse(JSON.stringify(p)).unifiedDiff;
      } else if (mode === 'clone-after-decision') {
        queueMicrotask(() => {
          const c = structuredClone(p);
          readDiff = () => c.unifiedDiff;
        });
        readDiff = () => structuredClone(p).unifiedDiff;
      } else if (mode === 'frozen') {
        Object.freeze(p);
        readDiff = () => p.unifiedDiff;
      }
      await sleep(0);
      return { approved: true };
    },
  });
  const args = await callFor(tools, tool, before, after, pick);
  if (!args) return [];
  const outcome = await gated.callTool(tool, args);
  const written = fs.readFileSync(host, 'utf8');
  if (mode === 'after-second-call') {
    await gated.callTool('write_file', { path: '/f.txt', content: 'second call\n' });
  }
  if (mode === 'other-toolset-changed') {
    const t2 = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));
    await t2.callTool('write_file', { path: '/f.txt', content: `${written}tail\n` });
    fs.writeFileSync(host, 'changed on disk\n');
  }
  if (!outcome.ok || written === beforeBytes) return [];
  if (asked === 0) return ['a write ran without approval'];
  tally.wrote++;
  const p = other!;
  if (p.diffCoarse) return [];
  const diff = mode === 'async-task' ? await late! : readDiff!();
  const errs: string[] = [];
  const applied = applyStrict(beforeBytes, diff);
  if (applied !== written)
    errs.push(
      `${tool}/${mode}: diff applied ${JSON.stringify(applied).slice(0, 200)} != written ${JSON.stringify(written).slice(0, 200)}; diff ${JSON.stringify(diff).slice(0, 400)}`,
    );
  const counts = countProblems({
    unifiedDiff: diff,
    diffLines: p.diffLines,
    added: p.added,
    removed: p.removed,
  });
  if (counts.length)
    errs.push(`${tool}/${mode}: ${counts.join('; ')}; diff ${JSON.stringify(diff).slice(0, 300)}`);
  return errs;
}

describe('rt54: payload diff read at odd times is the change written', () => {
  for (const tool of ['write_file', 'edit_file', 'patch_file', 'edit_lines']) {
    it(`${tool}: every read timing, awkward texts`, async () => {
      tally.wrote = 0;
      await fc.assert(
        fc.asyncProperty(
          awkwardText(10),
          awkwardText(10),
          fc.record({ from: fc.nat(500), len: fc.nat(500), all: fc.boolean() }),
          fc.constantFrom(...MODES),
          async (before, after, pick, mode) => {
            const errs = await runCase(tool, before, after, pick, mode);
            expect(errs).toEqual([]);
          },
        ),
        { numRuns: 200 },
      );
      // The property must have exercised real writes, not only refusals.
      expect(tally.wrote).toBeGreaterThan(50);
    });
  }
});
