import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Sandbox } from '../../src/sandbox/sandbox.js';

/** A temp copy of examples/sample-project: `/src` read-write (writes need approval), `/docs` read-only. */
export function demoWorkspace(dir?: string): { dir: string; sandbox: () => Sandbox } {
  const root = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-approval-web-'));
  fs.cpSync(path.join(import.meta.dirname, '..', 'sample-project'), root, { recursive: true });
  // A new Sandbox per request, as a web server would build it: nothing is shared but the host paths.
  const sandbox = () =>
    new Sandbox({
      mounts: [
        { hostPath: path.join(root, 'src'), mountPoint: '/src', mode: 'rw' },
        { hostPath: path.join(root, 'docs'), mountPoint: '/docs', mode: 'ro', suffixes: ['.md'] },
      ],
    });
  return { dir: root, sandbox };
}
