// The names each package entry point exports (values and types), read from the TypeScript sources
// with the compiler API: `node scripts/entry-exports.mjs [--json]` prints them with their counts.
import path from 'node:path';
import ts from 'typescript';

export const ENTRY_POINTS = {
  'sandbox-approval': 'src/index.ts',
  'sandbox-approval/terminal': 'src/terminal/index.ts',
  'sandbox-approval/ai-sdk': 'adapters/ai-sdk.ts',
  'sandbox-approval/openai-agents': 'adapters/openai-agents.ts',
  'sandbox-approval/mcp': 'src/mcp/index.ts',
  'sandbox-approval/react': 'src/react/index.ts',
};

/** Export names per entry point, sorted, for the project rooted at `root`. */
export function entryExports(root = process.cwd()) {
  const files = Object.values(ENTRY_POINTS).map((f) => path.resolve(root, f));
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config;
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const result = {};
  for (const [name, file] of Object.entries(ENTRY_POINTS)) {
    const source = program.getSourceFile(path.resolve(root, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    result[name] = symbol
      ? checker
          .getExportsOfModule(symbol)
          .map((s) => s.getName())
          .sort()
      : [];
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv.find((a, i) => i > 1 && !a.startsWith('--')) ?? process.cwd();
  const all = entryExports(path.resolve(root));
  if (process.argv.includes('--json')) console.log(JSON.stringify(all, null, 2));
  else
    for (const [entry, names] of Object.entries(all))
      console.log(`${String(names.length).padStart(4)}  ${entry}`);
}
