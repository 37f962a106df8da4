import type { ToolOutcome } from '../../src/contract/tool-outcome.js';
import type { MountOptions } from '../../src/sandbox/config.js';
import { Sandbox } from '../../src/sandbox/sandbox.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { tempDir } from '../helpers/temp-project.js';

/** A toolset over one rw mount at "/" on a fresh temp dir. */
export function project(files: Record<string, string | Buffer> = {}, mount: MountOptions = {}) {
  const dir = tempDir(files);
  const sandbox = Sandbox.fromDirectory(dir, { mode: 'rw', ...mount });
  const toolset = new FileSystemToolset(sandbox);
  return { dir, sandbox, toolset };
}

/** Unwraps a successful outcome (fails the test with the error otherwise). */
export function ok<T = Record<string, unknown>>(outcome: ToolOutcome): T {
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.error.code}: ${outcome.error.message}`);
  return outcome.data as T;
}

export function err(outcome: ToolOutcome) {
  if (outcome.ok) throw new Error(`expected an error, got ${JSON.stringify(outcome.data).slice(0, 300)}`);
  return outcome.error;
}
