// rt62: list_files with a pattern ending in "/". Entries show directories with a trailing "/" ("/src/"),
// and in a shell `*/` lists exactly the directories (`ls -d */`), `**/` every directory (globstar), `src/`
// that directory. Here all three are accepted (ok: true) and silently match nothing, so a model asking
// "which directories are there?" is told "none". docs/tools.md neither lists trailing "/" among the
// refused syntaxes nor says it never matches. Either listing the directories or refusing with
// invalid_argument would keep the promise; an empty success does not.
// (Also accepted and silently empty: "a//y.ts" and "a/./y.ts", which a shell matches as "a/y.ts".)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSystemToolset, Sandbox } from '../../src/index.js';

const dir = mkdtempSync(join(os.tmpdir(), 'rt62-slash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'src/lib'), { recursive: true });
mkdirSync(join(dir, 'docs'));
writeFileSync(join(dir, 'README.md'), '');
writeFileSync(join(dir, 'src/a.ts'), '');
writeFileSync(join(dir, 'src/lib/b.ts'), '');
const ts = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw', writeApproval: false }));

async function call(pattern: string): Promise<any> {
  return ts.callTool('list_files', { path: '/', pattern });
}

describe('rt62: patterns with a trailing slash', () => {
  for (const [pattern, dirs] of [
    ['*/', ['/docs/', '/src/']],
    ['**/', ['/docs/', '/src/', '/src/lib/']],
    ['src/', ['/src/']],
    ['src/*/', ['/src/lib/']],
  ] as const) {
    it(`FINDING: ${JSON.stringify(pattern)} lists ${JSON.stringify(dirs)} or is refused (not an empty success)`, async () => {
      const r = await call(pattern);
      if (r.ok)
        expect(r.data.entries).toEqual(dirs); // actual: ok, entries []
      else expect(r.error.code).toBe('invalid_argument');
    });
  }

  it('holds: the same patterns without the slash match (files and directories)', async () => {
    expect((await call('*')).data.entries).toEqual(['/README.md', '/docs/', '/src/']);
    expect((await call('src')).data.entries).toEqual(['/src/']);
    expect((await call('src/*')).data.entries).toEqual(['/src/a.ts', '/src/lib/']);
  });
});
