/**
 * The JSON-file store with hostile contents, each request its own Node process (test/web/fixtures/web-request.ts),
 * with the HMAC `secret` on (the docs' advice "when others can write there").
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { nodeScript } from '../helpers/node-script.js';
import { tempDir } from '../helpers/temp-project.js';

const run = promisify(execFile);
const REPO = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.resolve(REPO, 'test/web/fixtures/web-request.ts');

async function request(args: string[], call: unknown, env: Record<string, string> = {}) {
  const r = await run(process.execPath, [nodeScript(SCRIPT), ...args], {
    env: { ...process.env, TOOL_CALL: JSON.stringify(call), ...env },
    cwd: REPO,
  }).catch((e: { stdout?: string; stderr?: string }) => ({
    stdout: `{"crashed":${JSON.stringify(String(e.stderr).slice(0, 300))}}`,
    stderr: '',
  }));
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

function setup(files: Record<string, string>) {
  const root = tempDir();
  const project = path.join(root, 'project');
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
    fs.writeFileSync(path.join(project, rel), content);
  }
  return {
    root,
    project,
    store: path.join(root, 'store'),
    history: path.join(root, 'history.json'),
    file: (r: string) => path.join(project, r),
  };
}
const ORIGINAL = 'const one = 1;\nconst other = 1;\n';
const EDIT = {
  toolName: 'edit_file',
  input: { path: '/a.js', old_string: 'const other = 1;', new_string: 'const other = 10;' },
};
const ask = (s: ReturnType<typeof setup>, call: unknown = EDIT, env: Record<string, string> = {}) =>
  request(['ask', s.project, s.store, s.history], call, env);
const execute = (
  s: ReturnType<typeof setup>,
  answer: string,
  call: unknown = EDIT,
  env: Record<string, string> = {},
) => request(['execute', s.project, s.store, s.history, answer], call, env);
const out = (r: Record<string, unknown>) => JSON.stringify(r.output ?? r);
const entries = (s: ReturnType<typeof setup>) => fs.readdirSync(s.store).filter((n) => n.endsWith('.json'));

describe('hostile JSON-file store contents', () => {
  it('a claimed record rolled back (the sealed record file restored) never runs again', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    await ask(s);
    const [name] = entries(s);
    const saved = fs.readFileSync(path.join(s.store, name!));
    expect(out(await execute(s, 'approve'))).toContain('"type":"json"');
    // Someone with write access to the store restores the genuine, signed record; the file is back as shown.
    fs.writeFileSync(path.join(s.store, name!), saved);
    fs.writeFileSync(s.file('a.js'), ORIGINAL);
    const replay = await execute(s, 'approve');
    expect(out(replay)).toMatch(/approval_blocked|stale_approval/);
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
  }, 60_000);

  it('a denied record rolled back: the denial stays final', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    await ask(s);
    const [name] = entries(s);
    const saved = fs.readFileSync(path.join(s.store, name!));
    expect(out(await execute(s, 'deny'))).toContain('execution-denied');
    fs.writeFileSync(path.join(s.store, name!), saved);
    // The client flips the denial; the server settles denials of the history it receives,
    // so build a history with only the approval.
    const replay = await execute(s, 'approve');
    expect(out(replay)).toMatch(/approval_blocked|stale_approval/);
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
  }, 60_000);

  it("one conversation's sealed record copied to another conversation's entry name: refused", async () => {
    const s = setup({ 'a.js': ORIGINAL });
    const a = { ...s, history: `${s.history}.a` };
    const b = { ...s, history: `${s.history}.b` };
    await ask(a, EDIT, { CALL_ID: 'call_0', CONVERSATION: 'victim' });
    const victim = entries(s)[0]!;
    await ask(
      b,
      { toolName: 'write_file', input: { path: '/z.md', content: 'z\n' } },
      { CALL_ID: 'call_0', CONVERSATION: 'attacker' },
    );
    const mine = entries(s).find((n) => n !== victim)!;
    // Attacker replaces its own entry by a symlink to the victim's record, then executes its own call_0.
    fs.rmSync(path.join(s.store, mine));
    fs.symlinkSync(path.join(s.store, victim), path.join(s.store, mine));
    const r = await execute(b, 'approve', EDIT, { CALL_ID: 'call_0', CONVERSATION: 'attacker' });
    expect(out(r)).not.toContain('"type":"json"');
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
    // The victim's pending approval must survive the attacker's request.
    const v = await execute(a, 'approve', EDIT, { CALL_ID: 'call_0', CONVERSATION: 'victim' });
    expect(out(v)).toContain('"type":"json"');
  }, 60_000);

  it('a directory pre-created at the record name: the request fails closed, nothing written', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    await ask(s);
    const [name] = entries(s);
    fs.rmSync(path.join(s.store, name!));
    fs.mkdirSync(path.join(s.store, name!));
    const r = await execute(s, 'approve');
    expect(out(r)).not.toContain('"type":"json"');
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
  }, 60_000);

  it('two sandboxes (different roots, same relative file and bytes) sharing a store and a conversation: no cross-run', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    const other = path.join(s.root, 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'a.js'), ORIGINAL);
    await ask(s);
    const r = await request(['execute', other, s.store, s.history, 'approve'], EDIT);
    expect(out(r)).not.toContain('"type":"json"');
    expect(fs.readFileSync(path.join(other, 'a.js'), 'utf8')).toBe(ORIGINAL);
    // and the real sandbox's approval still works
    expect(out(await execute(s, 'approve'))).toContain('"type":"json"');
  }, 60_000);

  it('odd call ids (path separators, .., control char, lone surrogate, 100k chars) stay inside the store and scoped', async () => {
    for (const id of ['../../etc/passwd', 'a/b\\c', 'x\u0001y', '\ud800', 'l'.repeat(100_000)]) {
      const s = setup({ 'a.js': ORIGINAL });
      await ask(s, EDIT, { CALL_ID: id });
      expect(fs.readdirSync(s.root).sort()).toEqual(['history.json', 'project', 'store']);
      expect(entries(s)).toHaveLength(1);
      // another conversation with the same id cannot run it
      const r = await execute(s, 'approve', EDIT, { CALL_ID: id, CONVERSATION: 'other' });
      expect(out(r)).not.toContain('"type":"json"');
      expect(out(await execute(s, 'approve', EDIT, { CALL_ID: id }))).toContain('"type":"json"');
    }
  }, 240_000);
});

describe('replays after the tombstone is pruned', () => {
  it('a used approval replayed after its tombstone expired and was pruned: never runs', async () => {
    const s = setup({ 'a.js': ORIGINAL, 'b.js': 'b\n' });
    // A ttl long enough for ask → execute on a loaded machine; the tombstone is kept 2×ttl.
    const env = { TTL_MS: '8000' };
    await ask(s, EDIT, env);
    expect(out(await execute(s, 'approve', EDIT, env))).toContain('"type":"json"');
    fs.writeFileSync(s.file('a.js'), ORIGINAL); // as shown again (content); inode differs
    await new Promise((r) => setTimeout(r, 16_500));
    // Another request prunes: the tombstone (kept 2×ttl) is gone.
    await ask(
      { ...s, history: `${s.history}.b` },
      { toolName: 'write_file', input: { path: '/b.js', content: 'x\n' } },
      { ...env, CALL_ID: 'call-2' },
    );
    expect(
      entries(s).map((n) => JSON.parse(fs.readFileSync(path.join(s.store, n), 'utf8')).toolCallId),
    ).not.toContain('call-1');
    const replay = await execute(s, 'approve', EDIT, env);
    expect(out(replay)).not.toContain('"type":"json"');
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
  }, 60_000);

  it('a denied approval replayed as approved after its tombstone was pruned: never runs', async () => {
    const s = setup({ 'a.js': ORIGINAL, 'b.js': 'b\n' });
    // A ttl long enough for ask → execute on a loaded machine; the tombstone is kept 2×ttl.
    const env = { TTL_MS: '8000' };
    await ask(s, EDIT, env);
    expect(out(await execute(s, 'deny', EDIT, env))).toContain('execution-denied');
    await new Promise((r) => setTimeout(r, 16_500));
    await ask(
      { ...s, history: `${s.history}.b` },
      { toolName: 'write_file', input: { path: '/b.js', content: 'x\n' } },
      { ...env, CALL_ID: 'call-2' },
    );
    const replay = await execute(s, 'approve', EDIT, env);
    expect(out(replay)).not.toContain('"type":"json"');
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
  }, 60_000);

  it('the model reuses call_0 in a later turn of the same conversation (after a claimed call_0): safe but never approvable (documented)', async () => {
    const s = setup({ 'a.js': ORIGINAL, 'b.md': 'b\n' });
    await ask(s, EDIT, { CALL_ID: 'call_0' });
    expect(out(await execute(s, 'approve', EDIT, { CALL_ID: 'call_0' }))).toContain('"type":"json"');
    const second = { ...s, history: `${s.history}.2` };
    const write = { toolName: 'write_file', input: { path: '/b.md', content: 'second turn\n' } };
    const asked = await ask(second, write, { CALL_ID: 'call_0' });
    const r = await execute(second, 'approve', write, { CALL_ID: 'call_0' });
    // Documented ("a re-ask of a tombstoned call id records nothing"): safe, but the new call can never be
    // approved — a liveness caveat for models that reuse call_0 every turn, not a break of the promise.
    expect({ shown: asked.shown !== undefined, ran: out(r).includes('"type":"json"') }).toEqual({
      shown: false,
      ran: false,
    });
    expect(fs.readFileSync(s.file('b.md'), 'utf8')).toBe('b\n');
  }, 60_000);
});

describe('what the seal promises (docs/approval.md)', () => {
  for (const secret of [true, false])
    it(`a record altered in storage (expiry pushed out), ${secret ? 'with a secret: refused' : 'without one: no seal (as documented)'}`, async () => {
      const s = setup({ 'a.js': ORIGINAL });
      const env: Record<string, string> = secret ? { TTL_MS: '1500' } : { NO_SECRET: '1', TTL_MS: '1500' };
      await ask(s, EDIT, env);
      const [name] = entries(s);
      const file = path.join(s.store, name!);
      const record = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect('mac' in record).toBe(secret);
      record.expiresAt = '2999-01-01T00:00:00.000Z';
      fs.writeFileSync(file, JSON.stringify(record));
      await new Promise((r) => setTimeout(r, 2000)); // the approval as asked has expired
      const r = await execute(s, 'approve', EDIT, env);
      // Tamper resistance needs the secret; without it the edited expiry is trusted.
      expect(out(r).includes('"type":"json"')).toBe(!secret);
    }, 60_000);
});
