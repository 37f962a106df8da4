import fs from 'node:fs';
import path from 'node:path';
import { FileSystemToolset, Sandbox } from '../../src/index.js';
import { tempDir } from '../helpers/temp-project.js';

/** A toolset (writes not gated) over a temp dir holding `/f.txt`, and a reader of that file as it is on disk. */
export function oneFileProject(content: string, limits: Record<string, number> = {}) {
  const dir = tempDir({ 'f.txt': content });
  const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }), {
    limits,
  });
  const disk = () => fs.readFileSync(path.join(dir, 'f.txt'), 'utf8');
  return { ts, disk };
}

/** A tool call's data; a failed call fails the test with its code and message. */
export async function callOk(
  ts: FileSystemToolset,
  name: string,
  args: Record<string, unknown>,
): Promise<any> {
  const out: any = await ts.callTool(name, args);
  if (!out.ok) throw new Error(`${name}: ${out.error.code}: ${out.error.message}`);
  return out.data;
}
