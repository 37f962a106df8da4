// Red team rt54: the same request shown twice shows the same diff whatever the first callback did
// to its copy; a dry run's payload diff, the approval's and previewEdit's are the change written;
// a callback that throws after tampering never writes.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ApprovalRequest, ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { snapshot } from '../helpers/temp-project.js';
import { applyStrict, awkwardText, countProblems, project } from './rt54-helpers.js';

type DiffPayload = {
  unifiedDiff: string;
  diffLines: number;
  added: number;
  removed: number;
  diffCoarse?: boolean;
};

const TAMPER: Array<(p: Record<string, unknown>) => void> = [
  (p) => {
    p.unifiedDiff = 'EVIL';
  },
  (p) => {
    delete p.unifiedDiff;
  },
  (p) => {
    Object.defineProperty(p, 'unifiedDiff', { get: () => 'EVIL', enumerable: true, configurable: true });
  },
  (p) => {
    const d = Object.getOwnPropertyDescriptor(p, 'unifiedDiff');
    // Call the setter with other receivers.
    d?.set?.call({}, 'EVIL');
    d?.set?.call(Object.create(p), 'EVIL');
    d?.set?.call(p, 'EVIL');
  },
  (p) => {
    Object.freeze(p);
  },
  (p) => {
    p.diffLines = 0;
    p.added = 99;
    p.baseSha256 = '0'.repeat(64);
    p.path = '/other.txt';
  },
  (p) => {
    Object.setPrototypeOf(p, { unifiedDiff: 'EVIL' });
    delete p.unifiedDiff;
  },
];

describe('rt54: the same request shown twice shows the same diff', () => {
  it('generated edits: tamper with the first copy, deny; the second showing and the approved write agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        awkwardText(8),
        fc.string({ maxLength: 12 }),
        fc.nat(100),
        fc.integer({ min: 0, max: TAMPER.length - 1 }),
        fc.constantFrom('write_file', 'edit_file'),
        async (before, neu, at, t, tool) => {
          const { dir, file } = project({ 'f.txt': before, 'other.txt': 'keep\n' });
          const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
          const view = before.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
          if (tool === 'edit_file' && view.length === 0) return;
          const from = at % Math.max(1, view.length);
          const args =
            tool === 'write_file'
              ? { path: '/f.txt', content: neu }
              : {
                  path: '/f.txt',
                  old_string: view.slice(from, from + 3),
                  new_string: neu,
                  replace_all: true,
                };
          const diffs: string[] = [];
          const payloads: DiffPayload[] = [];
          let round = 0;
          const gated = new ApprovalToolset(tools, {
            approve: (req: ApprovalRequest) => {
              round++;
              const p = req.payload as unknown as Record<string, unknown>;
              if (round === 1) {
                try {
                  TAMPER[t]!(p);
                } catch {
                  // frozen etc.
                }
                return { approved: false, note: 'no' };
              }
              diffs.push((req.payload as unknown as DiffPayload).unifiedDiff);
              payloads.push(req.payload as unknown as DiffPayload);
              return { approved: round === 3 };
            },
          });
          const snap = snapshot(dir);
          const o1 = await gated.callTool(tool, args);
          if (o1.ok) throw new Error('denied call ran');
          expect(snapshot(dir)).toEqual(snap);
          if (round === 0) return; // refused before asking (e.g. not found)
          const o2 = await gated.callTool(tool, args);
          expect(o2.ok).toBe(false);
          expect(snapshot(dir)).toEqual(snap);
          const o3 = await gated.callTool(tool, args);
          expect(diffs.length).toBe(2);
          expect(diffs[1]).toBe(diffs[0]);
          expect(diffs[0]).not.toContain('EVIL');
          if (!o3.ok) return;
          const written = file();
          if (written === before) return;
          if (payloads[1]!.diffCoarse) return;
          expect(applyStrict(before, diffs[1]!)).toBe(written);
          expect(countProblems({ ...payloads[1]!, unifiedDiff: diffs[1]! })).toEqual([]);
          expect(file('other.txt')).toBe('keep\n');
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a callback that tampers and then throws never writes', async () => {
    for (const tamper of TAMPER) {
      const { dir } = project({ 'f.txt': 'a\r\nb\r\n' });
      const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
      const gated = new ApprovalToolset(tools, {
        approve: (req) => {
          tamper(req.payload as unknown as Record<string, unknown>);
          (req.payload as unknown as Record<string, unknown>).unifiedDiff = 'x';
          throw new Error('boom');
        },
      });
      const snap = snapshot(dir);
      await gated
        .callTool('edit_file', { path: '/f.txt', old_string: 'a', new_string: 'A' })
        .catch(() => undefined);
      expect(snapshot(dir)).toEqual(snap);
    }
  });

  it('dry run payload, approval payload and previewEdit diff are the change written (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        awkwardText(8),
        fc.string({ maxLength: 10 }),
        fc.string({ maxLength: 10 }),
        async (before, a, b) => {
          const { dir, file } = project({ 'f.txt': before });
          const tools = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
          const dry = await tools.callTool('write_file', { path: '/f.txt', content: a, dryRun: true });
          let shown: string | undefined;
          let preview: string | undefined;
          const gated = new ApprovalToolset(tools, {
            approve: async (req) => {
              shown = (req.payload as unknown as DiffPayload).unifiedDiff;
              const r = await req.previewEdit?.({ path: '/f.txt', content: b });
              if (r && r.status === 'needs_approval')
                preview = (r.payload as unknown as DiffPayload).unifiedDiff;
              return { approved: true, overrideArgs: { path: '/f.txt', content: b } };
            },
          });
          const o = await gated.callTool('write_file', { path: '/f.txt', content: a });
          const dryDiff =
            (dry.ok ? (dry.data as { payload?: DiffPayload }).payload?.unifiedDiff : undefined) ?? '';
          if (shown !== undefined && dryDiff.length < 40_000) expect(dryDiff).toBe(shown);
          if (!o.ok) return;
          const written = file();
          if (written === before) return;
          expect(preview).toBeDefined();
          expect(applyStrict(before, preview!)).toBe(written);
        },
      ),
      { numRuns: 120 },
    );
  });
});
