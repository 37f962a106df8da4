import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-project.js';
import { approveAll, call, codeOf, type StdioSession, startServer } from '../mcp/stdio-client.js';

let s: StdioSession | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const exists = (p: string) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

describe('red team: directory moves whose tree changes while the person decides', () => {
  const mutations: [string, (src: string, outside: string) => void][] = [
    ['a file added', (src) => fs.writeFileSync(path.join(src, 'd/added.txt'), 'new')],
    ['a file removed', (src) => fs.rmSync(path.join(src, 'd/x.txt'))],
    [
      'a file added deep in a subdirectory',
      (src) => fs.writeFileSync(path.join(src, 'd/sub/deeper.txt'), 'n'),
    ],
    [
      'a file swapped for a link to outside',
      (src, outside) => {
        fs.rmSync(path.join(src, 'd/x.txt'));
        fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(src, 'd/x.txt'));
      },
    ],
    [
      'a same-size content swap with the mtime restored',
      (src) => {
        const f = path.join(src, 'd/x.txt');
        const st = fs.statSync(f);
        fs.writeFileSync(f, 'X\n');
        fs.utimesSync(f, st.atime, st.mtime);
      },
    ],
    [
      'the directory swapped for a link to an identical copy outside (times kept)',
      (src, outside) => {
        execFileSync('cp', ['-a', path.join(src, 'd'), path.join(outside, 'dcopy')]);
        fs.renameSync(path.join(src, 'd'), path.join(outside, 'dorig'));
        fs.symlinkSync(path.join(outside, 'dcopy'), path.join(src, 'd'));
      },
    ],
    [
      'the directory swapped for an identical copy (cp -a) that holds one more hidden file, times kept',
      (src, outside) => {
        execFileSync('cp', ['-a', path.join(src, 'd'), path.join(outside, 'dcopy2')]);
        const st = fs.statSync(path.join(outside, 'dcopy2/sub'));
        fs.writeFileSync(path.join(outside, 'dcopy2/sub/.hidden'), '');
        fs.utimesSync(path.join(outside, 'dcopy2/sub'), st.atime, st.mtime);
        fs.renameSync(path.join(src, 'd'), path.join(outside, 'dorig2'));
        fs.renameSync(path.join(outside, 'dcopy2'), path.join(src, 'd'));
      },
    ],
  ];

  it.each(mutations)('%s during the elicitation: the move does not run as approved', async (name, mutate) => {
    const dir = tempDir({ 'src/d/x.txt': 'x\n', 'src/d/sub/y.txt': 'y\n', 'outside/secret.txt': 's\n' });
    const src = path.join(dir, 'src');
    const outside = path.join(dir, 'outside');
    let shown = '';
    s = await startServer(['--mount', `${src}:/src:rw`], (message) => {
      shown = message;
      mutate(src, outside);
      return approveAll();
    });
    const r = await call(s, 'move_file', { source: '/src/d', destination: '/src/e' });
    expect(shown).toMatch(/x\.txt/);
    if (name.startsWith('a same-size')) {
      // Content is not shown for a directory move; report what happened.
      console.log('same-size swap:', codeOf(r) ?? 'moved');
      return;
    }
    expect(r.isError, `${name}: ${JSON.stringify(r)}`).toBe(true);
    expect(['stale_approval', 'path_not_in_sandbox', 'approval_blocked']).toContain(codeOf(r));
    expect(exists(path.join(src, 'e'))).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('s\n');
    expect(JSON.stringify(r)).not.toContain(dir);
  });

  it('a tree of 1,100 files: a file added during the elicitation beyond the shown entries is still caught', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1100; i++) files[`src/big/f${String(i).padStart(4, '0')}.txt`] = 'x';
    const dir = tempDir(files);
    const src = path.join(dir, 'src');
    s = await startServer(['--mount', `${src}:/src:rw`], () => {
      fs.mkdirSync(path.join(src, 'big/zz'));
      fs.writeFileSync(path.join(src, 'big/zz/zz.txt'), 'late');
      return approveAll();
    });
    const r = await call(s, 'move_file', { source: '/src/big', destination: '/src/big2' });
    expect(codeOf(r), JSON.stringify(r).slice(0, 400)).toBe('stale_approval');
    expect(exists(path.join(src, 'big2'))).toBe(false);
  });

  it('a relative link inside the moved tree that would escape from its new place is refused', async () => {
    const dir = tempDir({ 'src/a/b/d/keep.txt': 'k', 'src/x.txt': 'x', 'x.txt': 'host secret' });
    const src = path.join(dir, 'src');
    fs.symlinkSync('../../../x.txt', path.join(src, 'a/b/d/l.txt')); // -> src/x.txt now; -> dir/x.txt after the move
    s = await startServer(['--mount', `${src}:/src:rw`], approveAll);
    const r = await call(s, 'move_file', { source: '/src/a/b/d', destination: '/src/d' });
    expect(['path_not_in_sandbox', 'approval_blocked'], JSON.stringify(r)).toContain(codeOf(r));
    expect(exists(path.join(src, 'd'))).toBe(false);
  });

  it('the same escaping link planted during the elicitation', async () => {
    const dir = tempDir({ 'src/a/b/d/keep.txt': 'k', 'src/x.txt': 'x', 'x.txt': 'host secret' });
    const src = path.join(dir, 'src');
    s = await startServer(['--mount', `${src}:/src:rw`], () => {
      fs.symlinkSync('../../../x.txt', path.join(src, 'a/b/d/l.txt'));
      return approveAll();
    });
    const r = await call(s, 'move_file', { source: '/src/a/b/d', destination: '/src/d' });
    expect(r.isError, JSON.stringify(r)).toBe(true);
    expect(exists(path.join(src, 'd'))).toBe(false);
  });

  it('the directory move shows what moves and, declined, moves nothing', async () => {
    const dir = tempDir({ 'src/d/x.txt': 'x\n', 'src/d/sub/y.txt': 'y\n' });
    const src = path.join(dir, 'src');
    let shown = '';
    s = await startServer(['--mount', `${src}:/src:rw`], (m) => {
      shown = m;
      return { action: 'decline' };
    });
    const r = await call(s, 'move_file', { source: '/src/d', destination: '/src/e' });
    expect(codeOf(r)).toBe('approval_denied');
    console.log('shown for a directory move:', shown);
    expect(shown).toContain('x.txt');
    expect(shown).toContain('sub/y.txt');
    expect(exists(path.join(src, 'd/x.txt'))).toBe(true);
  });
});

describe('red team: names in the directory-move listing', () => {
  it('a file name with a newline / bidi override cannot forge lines of the listing the person reads', async () => {
    const dir = tempDir({ 'src/d/a.txt': 'a' });
    const src = path.join(dir, 'src');
    fs.writeFileSync(path.join(src, 'd', 'b.txt\n  … 0 more\n\n(Nothing else moves.)'), 'evil');
    fs.writeFileSync(path.join(src, 'd', 'c\u202etxt.exe'), 'x');
    let shown = '';
    s = await startServer(['--mount', `${src}:/src:rw`], (m) => {
      shown = m;
      return { action: 'decline' };
    });
    const r = await call(s, 'move_file', { source: '/src/d', destination: '/src/e' });
    console.log('listing shown:\n', shown);
    expect(codeOf(r)).toBe('approval_denied');
    expect(shown, 'a file name forged a line of the listing').not.toMatch(/^\(Nothing else moves\.\)$/m);
    expect(shown, 'a raw bidi override reached the person').not.toContain('\u202e');
  });

  it('the directory move payload description shows hostile names as visible tokens (dry run)', async () => {
    const dir = tempDir({ 'src/d/a.txt': 'a' });
    const src = path.join(dir, 'src');
    fs.writeFileSync(path.join(src, 'd', 'b.txt\n(Nothing else moves.)'), 'evil');
    fs.writeFileSync(path.join(src, 'd', 'c\u202etxt.exe'), 'x');
    s = await startServer(['--mount', `${src}:/src:rw`]);
    const r = await call(s, 'move_file', { source: '/src/d', destination: '/src/e', dryRun: true });
    const description = String((r.structuredContent as { description: string }).description);
    expect(description).not.toMatch(/[\n\u202e]/);
    expect(description).toContain('⟨U+000A⟩');
    expect(description).toContain('⟨U+202E⟩');
  });
});

describe('red team: read_media_file and get_file_info', () => {
  const PNG = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a6e3c1d90000000049454e44ae426082',
    'hex',
  );

  function setupMedia() {
    const dir = tempDir({ 'outside/secret.png': PNG, 'outside/secret.txt': 'top secret\n' });
    const src = path.join(dir, 'src');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'ok.png'), PNG);
    fs.writeFileSync(path.join(src, 'key.pem'), 'PRIVATE KEY\n');
    fs.writeFileSync(path.join(src, 'big.png'), Buffer.concat([PNG, Buffer.alloc(5000)]));
    fs.writeFileSync(path.join(src, 'lie.png'), 'not an image, just text\n');
    fs.symlinkSync(path.join(dir, 'outside/secret.png'), path.join(src, 'out.png'));
    fs.symlinkSync(path.join(src, 'key.pem'), path.join(src, 'pem-as.png'));
    fs.symlinkSync(path.join(src, 'key.pem'), path.join(src, 'pem-as.ts'));
    fs.symlinkSync(path.join(dir, 'outside/nothing.png'), path.join(src, 'dangling.png'));
    fs.symlinkSync(path.join(dir, 'outside'), path.join(src, 'outdir'));
    execFileSync('mkfifo', [path.join(src, 'fifo.png')]);
    const cfg = path.join(dir, 'cfg.json');
    fs.writeFileSync(
      cfg,
      JSON.stringify({
        mounts: [
          {
            hostPath: './src',
            mountPoint: '/src',
            mode: 'rw',
            suffixes: ['.png', '.ts'],
            maxFileBytes: 4000,
          },
        ],
      }),
    );
    return { dir, src, cfg };
  }

  it('media: valid image returned with MIME; links out, suffix bypass by link, size cap, FIFO refused', async () => {
    const { dir, cfg } = setupMedia();
    s = await startServer(['--config', cfg]);
    const ok = await call(s, 'read_media_file', { path: '/src/ok.png' });
    expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
    expect(ok.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    for (const p of [
      '/src/out.png',
      '/src/outdir/secret.png',
      '/src/dangling.png',
      '/src/big.png',
      '/src/fifo.png',
    ]) {
      const r = await call(s, 'read_media_file', { path: p });
      expect(r.isError, `${p}: ${JSON.stringify(r).slice(0, 300)}`).toBe(true);
      expect(JSON.stringify(r)).not.toContain(dir);
    }
    expect(codeOf(await call(s, 'read_media_file', { path: '/src/big.png' }))).toBe('file_too_large');
  });

  it('a .png / .ts link to a .pem (suffix not allowed) does not hand out the .pem', async () => {
    const { cfg } = setupMedia();
    s = await startServer(['--config', cfg]);
    const direct = await call(s, 'read_file', { path: '/src/key.pem' });
    expect(direct.isError).toBe(true);
    const m = await call(s, 'read_media_file', { path: '/src/pem-as.png' });
    expect(JSON.stringify(m), 'read_media_file through a .png link').not.toContain(
      Buffer.from('PRIVATE KEY\n').toString('base64'),
    );
    const t = await call(s, 'read_file', { path: '/src/pem-as.ts' });
    expect(JSON.stringify(t), 'read_file through a .ts link').not.toContain('PRIVATE KEY');
    const i = await call(s, 'get_file_info', { path: '/src/key.pem' });
    console.log('get_file_info on a disallowed suffix:', JSON.stringify(i.structuredContent));
    // read_file refuses it (suffix_not_allowed), so "readable as the sandbox allows" must not say true.
    expect(
      (i.structuredContent as { readable?: boolean }).readable,
      'get_file_info says readable: true for a file read_file refuses',
    ).not.toBe(true);
  });

  it('a text file with a .png extension is returned as image/png (documented: by extension)', async () => {
    const { cfg } = setupMedia();
    s = await startServer(['--config', cfg]);
    const r = await call(s, 'read_media_file', { path: '/src/lie.png' });
    console.log('lying extension:', JSON.stringify(r).slice(0, 300));
  });

  it('get_file_info: virtual paths only, links out refused, dirs and the root', async () => {
    const { dir, cfg } = setupMedia();
    s = await startServer(['--config', cfg]);
    for (const p of [
      '/src/out.png',
      '/src/outdir',
      '/src/outdir/secret.txt',
      '/src/dangling.png',
      '/src/../outside/secret.txt',
      '/etc/passwd',
    ]) {
      const r = await call(s, 'get_file_info', { path: p });
      expect(r.isError, `${p}: ${JSON.stringify(r)}`).toBe(true);
      expect(JSON.stringify(r)).not.toContain(dir);
    }
    const link = await call(s, 'get_file_info', { path: '/src/pem-as.png' });
    expect(JSON.stringify(link)).not.toContain(dir);
    const d = await call(s, 'get_file_info', { path: '/src' });
    expect(d.structuredContent).toMatchObject({ path: '/src', type: 'directory' });
    const root = await call(s, 'get_file_info', { path: '/' });
    expect(JSON.stringify(root)).not.toContain(dir);
    const fifo = await call(s, 'get_file_info', { path: '/src/fifo.png' });
    expect(JSON.stringify(fifo)).not.toContain(dir);
    console.log(
      'get_file_info / :',
      JSON.stringify(root).slice(0, 300),
      'fifo:',
      JSON.stringify(fifo).slice(0, 300),
    );
  });
});
