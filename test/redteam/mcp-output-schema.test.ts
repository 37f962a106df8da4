import fs from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { approveAll, call, type StdioSession, startServer } from '../mcp/stdio-client.js';

describe('red team: outputSchema vs structuredContent', () => {
  let dir: string;
  let s: StdioSession;
  const schemas = new Map<string, object>();
  beforeAll(async () => {
    dir = tempDir({ 'src/a.ts': 'a\r\nb\r\n', 'src/d/x.ts': 'x\n', 'src/t.png': 'x' }, { keep: true });
    fs.symlinkSync('a.ts', path.join(dir, 'src/l.ts'));
    s = await startServer(['--mount', `${dir}/src:/src:rw`], (m) => ({
      action: 'accept',
      content: { decision: 'approve', note: m.length > 0 ? 'looks fine' : '' },
    }));
    for (const t of (await s.client.listTools()).tools) schemas.set(t.name, t.outputSchema ?? {});
  });
  afterAll(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every tool has an outputSchema', () => {
    for (const [n, sch] of schemas) expect(Object.keys(sch).length, n).toBeGreaterThan(0);
  });

  const calls: [string, Record<string, unknown>][] = [
    ['read_file', { path: '/src/a.ts', tail: 1 }],
    ['read_many_files', { paths: ['/src/a.ts', '/src/nope.ts'] }],
    ['list_files', { path: '/src' }],
    ['get_file_info', { path: '/src/l.ts' }],
    ['read_media_file', { path: '/src/t.png' }],
    ['create_directory', { path: '/src/d', dryRun: true }],
    ['copy_file', { source: '/src/l.ts', destination: '/src/l2.ts' }],
    ['move_file', { source: '/src/d', destination: '/src/e' }],
    ['edit_file', { path: '/src/a.ts', old_string: 'b', new_string: 'c' }],
    ['delete_file', { path: '/src/l2.ts' }],
    ['write_file', { path: '/src/n.ts', content: 'n\n', dryRun: true }],
  ];
  it.each(calls)('%s %j: structuredContent matches the outputSchema (success)', async (name, a) => {
    const r = await call(s, name, a);
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const ajv = new Ajv({ strict: false });
    const ok = ajv.validate(schemas.get(name)!, r.structuredContent);
    expect(ok, `${name}: ${ajv.errorsText()} ${JSON.stringify(r.structuredContent).slice(0, 300)}`).toBe(
      true,
    );
  });

  const failing: [string, Record<string, unknown>][] = [
    ['read_file', { path: '/src/missing.ts' }],
    ['write_file', { path: '/src/a.ts', content: 'x', dry_run: true }],
    ['edit_file', { path: '/src/a.ts', old_string: 'zzz', new_string: 'y' }],
    ['get_file_info', { path: '/etc/passwd' }],
  ];
  it.each(
    failing,
  )('after tools/list, the official SDK client gets a failing %s %j as an isError result (not a thrown protocol error)', async (name, a) => {
    // Real clients list the tools first; the SDK then validates every structuredContent, errors included.
    let r: Awaited<ReturnType<typeof call>> | undefined;
    let thrown: unknown;
    try {
      r = await call(s, name, a);
    } catch (e) {
      thrown = e;
    }
    expect(thrown ? String(thrown) : '', 'the tool error became a protocol error').toBe('');
    expect(r?.isError).toBe(true);
  });
});
