import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Every ```ts / ```typescript block in docs/**\/*.md and README.md is written to
 * its own module and type-checked, all in one program, against the sources
 * (package entry points mapped to src/ and adapters/ by `paths`). Blocks that
 * are only illustrative use another fence language (sh, json, text).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const TS_LANGS = new Set(['ts', 'typescript']);

interface Block {
  doc: string; // repo-relative Markdown file
  index: number; // 1-based among that file's ts blocks
  line: number; // 1-based line of the first code line in the doc
  code: string;
  /** The fence's info string after the language (e.g. `ai7-only`). */
  info: string;
}

function markdownFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) out.push(rel);
    }
  };
  if (fs.existsSync(path.join(ROOT, 'docs'))) walk('docs');
  return out.sort();
}

/** Fenced blocks (``` or ~~~, three or more), with the language of their info string. */
function extractBlocks(doc: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let open: { fence: string; lang: string; info: string; start: number; body: string[] } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!open) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)(.*)$/.exec(line);
      if (m) open = { fence: m[1]!, lang: m[2]!.toLowerCase(), info: m[3]!.trim(), start: i + 2, body: [] };
      continue;
    }
    const close = new RegExp(`^ {0,3}${open.fence[0]}{${open.fence.length},}\\s*$`);
    if (close.test(line)) {
      if (TS_LANGS.has(open.lang)) {
        const index = blocks.length + 1;
        blocks.push({ doc, index, line: open.start, code: open.body.join('\n'), info: open.info });
      }
      open = undefined;
    } else open.body.push(line);
  }
  return blocks;
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = path.join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, undefined, configPath);
  return {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    sourceMap: false,
    // Each snippet is a module even without import/export, so their top-level names never collide.
    moduleDetection: ts.ModuleDetectionKind.Force,
    // Entry points resolve through tsconfig.json's `paths`, so a new entry point is covered without editing this.
    baseUrl: ROOT,
  };
}

const docs = markdownFiles();
// DOC_SNIPPETS_AI=6 (scripts/ai6-compat.sh): against ai v6, leaving out blocks marked ```ts ai7-only.
const blocks = docs
  .flatMap((doc) => extractBlocks(doc, fs.readFileSync(path.join(ROOT, doc), 'utf8')))
  .filter((b) => process.env.DOC_SNIPPETS_AI !== '6' || !b.info.split(/\s+/).includes('ai7-only'));
// Inside the repo, so package.json's "type": "module" (ESM, top-level await) applies to the snippets.
const snippetDir = path.join(ROOT, 'test', 'docs', `.snippets-${randomBytes(4).toString('hex')}`);

afterAll(() => {
  fs.rmSync(snippetDir, { recursive: true, force: true });
});

describe('documentation code blocks', () => {
  it('finds the docs and their TypeScript blocks', () => {
    expect(docs).toContain('docs/README.md');
    expect(blocks.length).toBeGreaterThan(10);
  });

  it('type-checks every ```ts block', () => {
    fs.mkdirSync(snippetDir, { recursive: true });
    const byFile = new Map<string, Block>();
    for (const b of blocks) {
      const name = `${b.doc.replace(/[/.]/g, '_')}-${String(b.index).padStart(2, '0')}.ts`;
      const file = path.join(snippetDir, name);
      fs.writeFileSync(file, `${b.code}\n`);
      byFile.set(path.resolve(file), b);
    }
    const program = ts.createProgram([...byFile.keys()], compilerOptions());
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...[...byFile.keys()].flatMap((f) => {
        const source = program.getSourceFile(f);
        return source
          ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
          : [];
      }),
    ];
    const report = diagnostics.map((d) => {
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n  ');
      const block = d.file ? byFile.get(path.resolve(d.file.fileName)) : undefined;
      if (!d.file || !block) return `TS${d.code}: ${message}`;
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${block.doc}:${block.line + line} (ts block #${block.index}, col ${character + 1}) TS${d.code}: ${message}`;
    });
    expect(report, `\n${report.join('\n')}\n`).toEqual([]);
  }, 180_000);

  it('links between docs point at existing files', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!.split('#')[0]!;
        if (!target || /^[a-z]+:/i.test(target)) continue;
        if (!fs.existsSync(path.resolve(ROOT, path.dirname(doc), target))) broken.push(`${doc}: ${m[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
