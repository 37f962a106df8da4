import path from 'node:path';
import { build } from 'esbuild';

/** Bundles the page's script (React, @ai-sdk/react, sandbox-approval/react) in memory, once at startup. */
export async function bundleClient(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(import.meta.dirname, 'client.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    tsconfig: path.join(import.meta.dirname, '..', '..', 'tsconfig.json'),
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
