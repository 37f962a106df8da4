// A temp copy of examples/sample-project, mounted the way an app would mount a project.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileSystemToolset, Sandbox } from 'sandbox-approval';

/** Copies the sample project to a temp dir: `/src` read-write (writes need approval), `/docs` read-only. */
export function sampleWorkspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-approval-example-'));
  fs.cpSync(path.join(import.meta.dirname, 'sample-project'), dir, { recursive: true });
  const sandbox = new Sandbox({
    mounts: [
      { hostPath: path.join(dir, 'src'), mountPoint: '/src', mode: 'rw' },
      { hostPath: path.join(dir, 'docs'), mountPoint: '/docs', mode: 'ro', suffixes: ['.md'] },
    ],
  });
  return { dir, toolset: new FileSystemToolset(sandbox) };
}

/** What the scripted model does when no API key is set: read, edit, and try to escape. */
export const SCRIPT = {
  read: { path: '/src/todo-list.ts' },
  edit: {
    path: '/src/todo-list.ts',
    old_string: "return [`${done}/${this.items.length} done`, ...lines].join('\\n');",
    new_string: "return [`${done} of ${this.items.length} done`, ...lines].join('\\n');",
  },
  escape: { path: '/src/../../outside.txt', content: 'hello' },
  prompt: 'Make the todo summary read "N of M done" in /src/todo-list.ts.',
} as const;
