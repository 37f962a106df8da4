import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, 'fixtures/web-request.ts');

/** One request of the web flow in its own Node process; returns its JSON line. */
async function request(
  args: string[],
  call: { toolName: string; input: unknown },
): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', SCRIPT, ...args], {
    env: { ...process.env, TOOL_CALL: JSON.stringify(call) },
    cwd: path.resolve(import.meta.dirname, '../..'),
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

function setup(files: Record<string, string>) {
  const root = tempDir();
  const project = path.join(root, 'project');
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, rel)), { recursive: true });
    fs.writeFileSync(path.join(project, rel), content);
  }
  const store = path.join(root, 'store');
  const history = path.join(root, 'history.json');
  const file = (rel: string) => path.join(project, rel);
  return { project, store, history, file };
}

const EDIT = {
  toolName: 'edit_file',
  input: { path: '/a.js', old_string: 'const other = 1;', new_string: 'const other = 10;' },
};
const ORIGINAL = 'const one = 1;\nconst other = 1;\n';

describe('deferred approvals across two Node processes (JSON-file store)', () => {
  it('request 1 asks, the file changes, request 2 executes: stale_approval, file byte-identical', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    const asked = await request(['ask', s.project, s.store, s.history], EDIT);
    expect(asked.finishReason).toBe('tool-calls');
    expect((asked.shown as { type: string; unifiedDiff: string }).unifiedDiff).toContain(
      '+const other = 10;',
    );
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);

    const changed = Buffer.from('const one = 1;\nconst other = 2; // changed after approval\n');
    fs.writeFileSync(s.file('a.js'), changed);
    const executed = await request(['execute', s.project, s.store, s.history, 'approve'], EDIT);
    expect(JSON.stringify(executed.output)).toContain('error stale_approval');
    expect(fs.readFileSync(s.file('a.js')).equals(changed)).toBe(true);
    expect(fs.readdirSync(s.store).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('happy path: request 2 applies exactly the change request 1 showed', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    const asked = await request(['ask', s.project, s.store, s.history], EDIT);
    const shown = asked.shown as { unifiedDiff: string; baseSha256: string };
    const executed = await request(['execute', s.project, s.store, s.history, 'approve'], EDIT);
    expect(executed.output).toMatchObject({ type: 'json', value: { path: '/a.js' } });
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe('const one = 1;\nconst other = 10;\n');
    expect(shown.unifiedDiff).toContain('-const other = 1;\n+const other = 10;');
  });

  it('an overwrite shown against one file state is not applied to another', async () => {
    const s = setup({ 'notes.md': 'shown\n' });
    const write = { toolName: 'write_file', input: { path: '/notes.md', content: 'new\n' } };
    const asked = await request(['ask', s.project, s.store, s.history], write);
    expect(asked.shown).toMatchObject({ type: 'write', fileExists: true });
    fs.writeFileSync(s.file('notes.md'), 'written by someone else\n');
    const executed = await request(['execute', s.project, s.store, s.history, 'approve'], write);
    expect(JSON.stringify(executed.output)).toContain('error stale_approval');
    expect(fs.readFileSync(s.file('notes.md'), 'utf8')).toBe('written by someone else\n');
  });

  it('a record altered in the shared store is refused (HMAC), nothing written', async () => {
    const s = setup({ 'a.js': ORIGINAL });
    await request(['ask', s.project, s.store, s.history], EDIT);
    const [name] = fs.readdirSync(s.store).filter((n) => n.endsWith('.json'));
    const file = path.join(s.store, name!);
    const record = JSON.parse(fs.readFileSync(file, 'utf8'));
    record.expiresAt = '2999-01-01T00:00:00.000Z';
    fs.writeFileSync(file, JSON.stringify(record));
    const executed = await request(['execute', s.project, s.store, s.history, 'approve'], EDIT);
    expect(JSON.stringify(executed.output)).toContain('error stale_approval');
    expect(JSON.stringify(executed.output)).toContain('altered');
    expect(fs.readFileSync(s.file('a.js'), 'utf8')).toBe(ORIGINAL);
  });
});
