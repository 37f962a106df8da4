import fs from 'node:fs';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

/** A staging toolset over one rw mount at "/" on a fresh temp dir. */
export function stagedProject(files: Record<string, string | Buffer> = {}) {
  const dir = tempDir(files);
  const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw' });
  const toolset = new FileSystemToolset(sandbox, { staging: true });
  return { dir, sandbox, toolset, staging: toolset.staging! };
}

/** Every regular file under dir (relative path → content), hidden journal entries included. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}
