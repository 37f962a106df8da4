// rt55: concurrent calls on one big file: Promise.all of mixed reads and edits, several
// toolsets on one directory, gated calls in parallel, another OS process editing.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';
import {
  applyStrict,
  bigText,
  bytesOf,
  gatedOn,
  MiB,
  type Shape,
  sha,
  sleep,
  tmp,
  toolsetOn,
  WHOLE_READ,
} from './rt55-helpers.js';

const worker = path.join(import.meta.dirname, 'rt55-xproc-worker.ts');

function runWorker(root: string, job: unknown): Promise<{ results: any[] }> {
  const child = spawn(process.execPath, [nodeScript(worker), root, JSON.stringify(job)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) reject(new Error(`worker exit ${code}: ${err.slice(0, 500)}`));
      else resolve(JSON.parse(line));
    }),
  );
}

function runWorkerSync(root: string, job: unknown): { results: any[] } {
  const r = spawnSync(process.execPath, [nodeScript(worker), root, JSON.stringify(job)], {
    encoding: 'utf8',
  });
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) throw new Error(`worker: ${r.stderr.slice(0, 500)}`);
  return JSON.parse(line);
}

const LF_ASCII: Shape = { chars: 'ascii', eol: '\n', bom: false, finalNewline: true, lineLen: 60 };
const LF_LATIN: Shape = { chars: 'latin', eol: '\n', bom: false, finalNewline: false, lineLen: 60 };
const CRLF_ASTRAL_BOM: Shape = { chars: 'astral', eol: '\r\n', bom: true, finalNewline: true, lineLen: 60 };

describe('rt55 concurrency on one big file', () => {
  // Was broken (fixed; red team rt55): a read_file that opened the old version before a parallel edit's rename and finished after it records a
  // higher version number than the edit's result, while its content and sha256 are the version before the edit
  // ("A higher version is newer" in docs/tools.md does not hold; the model is told stale content is the newest).
  it('a read and an edit in parallel: a read with a higher version than the edit shows the edit', async () => {
    const line = `${'abcdefghij'.repeat(7)}\n`;
    const text = `<<MARK0>>\n${line.repeat(Math.ceil((16 * MiB) / line.length))}`;
    const dir = tmp({ 'a.txt': text });
    const file = path.join(dir, 'a.txt');
    const ts = toolsetOn(dir);
    const inversions: string[] = [];
    for (let round = 0; round < 12 && inversions.length === 0; round++) {
      const beforeSha = sha(fs.readFileSync(file));
      let done = false;
      const reads: any[] = [];
      const edit = ts
        .callTool('edit_file', {
          path: '/a.txt',
          old_string: `<<MARK${round}>>`,
          new_string: `<<MARK${round + 1}>>`,
        })
        .then((r: any) => {
          done = true;
          return r;
        });
      const loop = (async () => {
        while (!done) {
          // another process touches the file's metadata (not its bytes): each read loads the file
          fs.chmodSync(file, 0o644);
          reads.push(await ts.callTool('read_file', { path: '/a.txt', limit: 1 }));
          await new Promise((r) => setImmediate(r));
        }
      })();
      const [e] = await Promise.all([edit, loop]);
      expect(e.ok, JSON.stringify(e.error)).toBe(true);
      for (const r of reads) {
        if (r.data.version > e.data.version && r.data.sha256 === beforeSha)
          inversions.push(
            `read version ${r.data.version} shows ${r.data.content} (sha ${r.data.sha256.slice(0, 8)}, before the edit); edit version ${e.data.version} wrote <<MARK${round + 1}>>`,
          );
      }
    }
    expect(inversions).toEqual([]);
  }, 120_000);

  for (const [label, shape] of [
    ['ASCII LF', LF_ASCII],
    ['non-ASCII LF no final newline', LF_LATIN],
  ] as const) {
    it(`${label}: Promise.all of 40 mixed reads and edits; nothing lost, reads consistent, undo all restores`, async () => {
      const text = bigText(4 * MiB + 3, shape, 42);
      const raw = Buffer.from(text);
      const dir = tmp({ 'a.txt': raw });
      fs.chmodSync(path.join(dir, 'a.txt'), 0o600);
      // a journal big enough for every edit's "before" (the default 32 MiB keeps about 8 of them)
      const ts = toolsetOn(dir, { limits: { ...WHOLE_READ, journalBudgetBytes: 256 * MiB } });
      const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]).slice(0, 20);
      const calls: Array<Promise<any>> = [];
      markers.forEach((m, i) => {
        calls.push(ts.callTool('edit_file', { path: '/a.txt', old_string: m, new_string: `${m}é${i}` }));
        calls.push(ts.callTool('read_file', { path: '/a.txt', hashes: i % 2 === 0 }));
      });
      const out = await Promise.all(calls);
      for (const r of out) expect(r.ok, JSON.stringify(r.error)).toBe(true);
      const final = bytesOf(dir, 'a.txt').toString('utf8');
      let expected = text;
      markers.forEach((m, i) => {
        expected = expected.replace(m, `${m}é${i}`);
      });
      expect(final === expected).toBe(true);
      // every read's content is the version its sha256 names (LF, no BOM: content + newline is the file)
      const shas = new Set<string>([sha(raw)]);
      for (const r of out.filter((_, k) => k % 2 === 0)) shas.add(r.data.sha256);
      for (const r of out.filter((_, k) => k % 2 === 1)) {
        const content = r.data.content
          .split('\n')
          .map((l: string) => l.replace(/^\d+#[0-9a-f]+\|/, ''))
          .join('\n');
        const bytes = text.endsWith('\n') ? `${content}\n` : content;
        expect(sha(bytes)).toBe(r.data.sha256);
        expect(shas.has(r.data.sha256)).toBe(true);
      }
      // undo every edit, newest first: the original bytes and mode
      for (let k = 0; k < markers.length; k++) {
        const u = (await ts.undo()) as any;
        expect(u.ok, JSON.stringify(u.error)).toBe(true);
      }
      expect(bytesOf(dir, 'a.txt').equals(raw)).toBe(true);
      expect(fs.statSync(path.join(dir, 'a.txt')).mode & 0o7777).toBe(0o600);
    }, 60_000);
  }

  it('three toolsets on one directory, edits in parallel: nothing lost; undo never reverts another toolset', async () => {
    const text = bigText(3 * MiB, CRLF_ASTRAL_BOM, 9);
    const raw = Buffer.from(text);
    const dir = tmp({ 'a.txt': raw });
    const sets = [toolsetOn(dir), toolsetOn(dir), toolsetOn(dir)];
    const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]).slice(0, 18);
    const out = await Promise.all(
      markers.map((m, i) =>
        sets[i % 3]!.callTool('edit_file', { path: '/a.txt', old_string: m, new_string: `${m}\n+${i}` }),
      ),
    );
    for (const r of out as any[]) expect(r.ok, JSON.stringify(r.error)).toBe(true);
    let expected = text;
    markers.forEach((m, i) => {
      expected = expected.replace(m, `${m}\r\n+${i}`);
    });
    expect(bytesOf(dir, 'a.txt').toString('utf8') === expected).toBe(true);
    // the last writer is whoever wrote the current bytes: only that toolset may undo
    const current = sha(bytesOf(dir, 'a.txt'));
    const owner = (out as any[]).findIndex((r) => r.data.sha256 === current);
    expect(owner).toBeGreaterThanOrEqual(0);
    for (let s = 0; s < 3; s++) {
      if (s === owner % 3) continue;
      const u = (await sets[s]!.undo()) as any;
      expect(u.ok).toBe(false);
      expect(u.error.code).toBe('state_mismatch');
      expect(bytesOf(dir, 'a.txt').toString('utf8') === expected).toBe(true);
    }
    const u = (await sets[owner % 3]!.undo()) as any;
    expect(u.ok, JSON.stringify(u.error)).toBe(true);
    expect(
      bytesOf(dir, 'a.txt').toString('utf8') ===
        expected.replace(`${markers[owner]}\r\n+${owner}`, markers[owner]!),
    ).toBe(true);
  }, 60_000);

  it('gated edits in parallel through one ApprovalToolset: each diff shown is the change made to the state before it', async () => {
    const text = bigText(2 * MiB + 1, LF_LATIN, 3);
    const dir = tmp({ 'a.txt': text });
    const { gated, shown } = gatedOn(dir);
    const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]).slice(0, 8);
    const out = await Promise.all([
      ...markers.map((m, i) =>
        gated.callTool('edit_file', {
          path: '/a.txt',
          old_string: m,
          new_string: i % 2 ? `${m}😀` : `${m}x`,
          replace_all: i === 3,
        }),
      ),
      gated.callTool('edit_file', {
        path: '/a.txt',
        old_string: 'é',
        new_string: 'e\u0301',
        replace_all: true,
      }),
    ]);
    for (const r of out as any[]) expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(shown).toHaveLength(markers.length + 1);
    // chaining the diffs in the order they were approved gives the file on disk
    let state = text;
    for (const s of shown) {
      expect(s.payload.baseSha256).toBe(sha(state));
      const next = applyStrict(state, s.payload.unifiedDiff!);
      expect(next.startsWith('REFUSED'), next.slice(0, 200)).toBe(false);
      state = next;
    }
    expect(bytesOf(dir, 'a.txt').toString('utf8') === state).toBe(true);
  }, 60_000);

  it('another OS process edits the same big file while this one does: no update lost', async () => {
    const text = bigText(3 * MiB + 11, CRLF_ASTRAL_BOM, 5);
    const dir = tmp({ 'a.txt': text });
    fs.chmodSync(path.join(dir, 'a.txt'), 0o660);
    const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]);
    const mine = markers.slice(0, 12);
    const theirs = markers.slice(12, 24);
    const patched = markers.slice(24, 30);
    const ts = toolsetOn(dir, { limits: WHOLE_READ });
    const child = runWorker(dir, {
      kind: 'edits',
      path: '/a.txt',
      pairs: theirs.map((m) => [m, `${m}[child]`]),
    });
    const child2 = runWorker(dir, { kind: 'patches', path: '/a.txt', markers: patched });
    const own: any[] = [];
    for (const m of mine) {
      own.push(await ts.callTool('edit_file', { path: '/a.txt', old_string: m, new_string: `${m}[parent]` }));
      await sleep(5);
    }
    const [c, c2] = await Promise.all([child, child2]);
    for (const r of [...own, ...c.results, ...c2.results]) expect(r.ok, JSON.stringify(r)).toBe(true);
    let expected = text;
    for (const m of mine) expected = expected.replace(m, `${m}[parent]`);
    for (const m of theirs) expected = expected.replace(m, `${m}[child]`);
    for (const m of patched) expected = expected.replace(m, `${m}!`);
    expect(bytesOf(dir, 'a.txt').toString('utf8') === expected).toBe(true);
    expect(fs.statSync(path.join(dir, 'a.txt')).mode & 0o7777).toBe(0o660);
    // this toolset's undo: refused when another process wrote last, never reverting the others' edits
    const u = (await ts.undo()) as any;
    if (u.ok) {
      // only when this process wrote last: exactly its last edit undone
      expect(
        bytesOf(dir, 'a.txt').toString('utf8') === expected.replace(`${mine.at(-1)}[parent]`, mine.at(-1)!),
      ).toBe(true);
    } else {
      expect(u.error.code).toBe('state_mismatch');
      expect(bytesOf(dir, 'a.txt').toString('utf8') === expected).toBe(true);
    }
  }, 60_000);

  it('another process edits the file while the approval is on screen: stale_approval, its edit kept', async () => {
    for (const shape of [LF_ASCII, CRLF_ASTRAL_BOM]) {
      const text = bigText(2 * MiB + 5, shape, 77);
      const dir = tmp({ 'a.txt': text });
      const markers = [...text.matchAll(/<<M\d{6}>>/g)].map((m) => m[0]);
      const { gated } = gatedOn(dir, {}, () => {
        const r = runWorkerSync(dir, {
          kind: 'edits',
          path: '/a.txt',
          pairs: [[markers[1], `${markers[1]}[child]`]],
        });
        expect(r.results[0].ok).toBe(true);
      });
      const out = (await gated.callTool('edit_file', {
        path: '/a.txt',
        old_string: markers[0],
        new_string: `${markers[0]}[parent]`,
      })) as any;
      expect(out.ok).toBe(false);
      expect(out.error.code).toBe('stale_approval');
      expect(
        bytesOf(dir, 'a.txt').toString('utf8') === text.replace(markers[1]!, `${markers[1]}[child]`),
      ).toBe(true);
      // and the parent's undo has nothing of its own to undo
      expect(((await gated.undo()) as any).ok).toBe(false);
      expect(
        bytesOf(dir, 'a.txt').toString('utf8') === text.replace(markers[1]!, `${markers[1]}[child]`),
      ).toBe(true);
    }
  }, 60_000);
});
