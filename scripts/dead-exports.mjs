// Dead-export check (run by `npm test`): every name a module in src/ or adapters/ exports must be
// imported by another file (sources, tests, benchmarks, examples, scripts) or be part of a package
// entry point. An export only its own file uses should simply not be exported.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { ENTRY_POINTS } from './entry-exports.mjs';

const root = process.cwd();
const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config;
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root);
const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
const checker = program.getTypeChecker();
const inRepo = (f) => !f.includes('/node_modules/') && f.startsWith(root);
const isLibrary = (f) => /^(src|adapters)\//.test(path.relative(root, f));
const entries = new Set(Object.values(ENTRY_POINTS).map((f) => path.resolve(root, f)));

/** Imported names per module file ('*' when a whole module is imported or re-exported). */
const used = new Map();
const use = (file, name) => {
  if (!used.has(file)) used.set(file, new Set());
  used.get(file).add(name);
};
function resolve(from, specifier) {
  const r = ts.resolveModuleName(specifier, from.fileName, parsed.options, ts.sys).resolvedModule;
  return r && inRepo(r.resolvedFileName) ? path.resolve(r.resolvedFileName) : undefined;
}
for (const sf of program.getSourceFiles()) {
  if (!inRepo(sf.fileName)) continue;
  const visit = (node) => {
    const spec = node.moduleSpecifier ?? (ts.isImportTypeNode(node) ? node.argument?.literal : undefined);
    const target = spec && ts.isStringLiteral(spec) ? resolve(sf, spec.text) : undefined;
    if (target && ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (clause?.name) use(target, 'default');
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) use(target, '*');
      else for (const el of bindings?.elements ?? []) use(target, (el.propertyName ?? el.name).text);
    } else if (target && ts.isExportDeclaration(node)) {
      if (!node.exportClause || ts.isNamespaceExport(node.exportClause)) use(target, '*');
      else for (const el of node.exportClause.elements) use(target, (el.propertyName ?? el.name).text);
    } else if (target && ts.isImportTypeNode(node)) {
      use(target, node.qualifier ? (ts.isIdentifier(node.qualifier) ? node.qualifier.text : '*') : '*');
    }
    // Dynamic import('…'): the whole module counts as used.
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      const t = arg && ts.isStringLiteral(arg) ? resolve(sf, arg.text) : undefined;
      if (t) use(t, '*');
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/**
 * Known dead exports in files other work is rewriting right now (the edit engine, the terminal
 * UI, the MCP server, native mode): removing them there would only collide. Empty this list as
 * those land; a name may only leave it, never join it.
 */
const ALLOWED = new Set(
  JSON.parse(fs.readFileSync(new URL('./dead-exports-allowed.json', import.meta.url), 'utf8')),
);

const dead = [];
for (const sf of program.getSourceFiles()) {
  const file = path.resolve(sf.fileName);
  if (!inRepo(file) || !isLibrary(file) || entries.has(file)) continue;
  const symbol = checker.getSymbolAtLocation(sf);
  if (!symbol) continue;
  const imported = used.get(file) ?? new Set();
  if (imported.has('*')) continue;
  const text = sf.getFullText();
  for (const e of checker.getExportsOfModule(symbol)) {
    const name = e.getName();
    if (imported.has(name) || ALLOWED.has(`${path.relative(root, file)}: ${name}`)) continue;
    // A type that names the shape of an exported function's input or result is part of that
    // signature (as knip's ignoreExportsUsedInFile for types): exporting it is not dead.
    const isType = (e.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) !== 0;
    if (isType && (text.match(new RegExp(`\\b${name}\\b`, 'g')) ?? []).length > 1) continue;
    dead.push(`${path.relative(root, file)}: ${name}`);
  }
}
if (dead.length > 0) {
  console.error(
    `Exported but imported nowhere (${dead.length}); un-export or remove them:\n  ${dead.join('\n  ')}`,
  );
  process.exit(1);
}
console.log('dead exports: none');
