import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const REPO = path.resolve(import.meta.dirname, '../..');
// Inside the repository, so the bundle's bare imports (zod, diff, ...) resolve from node_modules.
const CACHE = path.join(REPO, 'node_modules/.cache/sandbox-approval-test-scripts');
const built = new Map<string, string>();

/**
 * A TypeScript child script as one JavaScript file for `node` itself. Tests that
 * spawn hundreds of children (kill -9 at every step, one process per request)
 * spent most of their time in `--import tsx` compiling the sources again in each
 * child (about 0.9 s against 0.3 s). Bundled once per test worker; node's own
 * modules and packages stay imports, so a script that patches `fs` before it
 * imports the library still patches what the library calls. `import.meta.dirname`,
 * `filename` and `url` are the script's own, as under tsx.
 */
export function nodeScript(file: string): string {
  const entry = path.resolve(file);
  const known = built.get(entry);
  if (known) return known;
  const out = buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'error',
    define: {
      'import.meta.dirname': JSON.stringify(path.dirname(entry)),
      'import.meta.filename': JSON.stringify(entry),
      'import.meta.url': JSON.stringify(pathToFileURL(entry).href),
    },
  }).outputFiles[0]!.contents;
  fs.mkdirSync(CACHE, { recursive: true });
  // Named by content: workers building the same script write the same file (atomically).
  const target = path.join(CACHE, `${createHash('sha256').update(out).digest('hex').slice(0, 20)}.mjs`);
  if (!fs.existsSync(target)) {
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, out);
    fs.renameSync(temp, target);
  }
  built.set(entry, target);
  return target;
}
