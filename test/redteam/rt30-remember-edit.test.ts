// Red team (rt30a): an approval that edits the call (overrideArgs) and asks to be remembered. docs/approval.md:
// "An approval with overrideArgs cannot also remember … any scope when the edit changes the files the call
// names (the scope would cover the model's file)". The check compares the names as trimmed, sorted strings:
// an edit that only adds a space to the path (another file), or swaps a copy's source and destination,
// passes — and the model's own call on its file is then remembered as approved and later runs unasked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ApprovalDecision, ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';

function setup(files: Record<string, string>) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rt30-remember-')));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(root, name), text);
  return root;
}

/** First prompt: the given decision (or the TypeError it raises is caught and counted). Later prompts: deny. */
function gated(root: string, first: ApprovalDecision) {
  const asked: string[] = [];
  const g = new ApprovalToolset(new FileSystemToolset(Sandbox.fromDirectory(root, { mode: 'rw' })), {
    approve: (req) => {
      asked.push(JSON.stringify(req.args));
      return asked.length === 1 ? first : { approved: false, note: 'no' };
    },
  });
  return { g, asked };
}

async function settle<T>(p: Promise<T>): Promise<T | Error> {
  try {
    return await p;
  } catch (e) {
    return e as Error;
  }
}

describe('remembered scope with edited arguments that name other files', () => {
  for (const spelled of ['/a.txt ', ' /a.txt', '/a.txt\n', '\t/a.txt']) {
    it(`write_file path edited to ${JSON.stringify(spelled)} + remember file: the model's /a.txt never runs unasked`, async () => {
      const root = setup({ 'a.txt': 'original\n' });
      const { g, asked } = gated(root, {
        approved: true,
        overrideArgs: { path: spelled, content: 'person\n' },
        remember: { scope: 'file' },
      });
      const first = await settle(
        g.callTool('write_file', { path: '/a.txt', content: 'model 1\n' }, { toolCallId: 'c1' }),
      );
      // Either the decision is refused (TypeError), or nothing is remembered for the model's file.
      const second: any = await settle(
        g.callTool('write_file', { path: '/a.txt', content: 'model 2\n' }, { toolCallId: 'c2' }),
      );
      const text = fs.readFileSync(path.join(root, 'a.txt'), 'utf8');
      fs.rmSync(root, { recursive: true, force: true });
      // Wanted: the decision refused as a TypeError, or the model's second call asked (and denied) again.
      expect({ firstRefused: first instanceof TypeError || asked.length === 2, text }).toEqual({
        firstRefused: true,
        text: first instanceof TypeError ? 'original\n' : text === 'model 2\n' ? 'not model 2' : text,
      });
      expect(second instanceof Error || second.ok === false).toBe(true);
    });
  }

  it('copy_file with source and destination swapped by the person + remember file: the model’s copy never runs unasked', async () => {
    const root = setup({ 'a.txt': 'A\n', 'b.txt': 'B precious\n' });
    const { g, asked } = gated(root, {
      approved: true,
      overrideArgs: { source: '/b.txt', destination: '/a.txt', overwrite: true },
      remember: { scope: 'file' },
    });
    await settle(
      g.callTool(
        'copy_file',
        { source: '/a.txt', destination: '/b.txt', overwrite: true },
        { toolCallId: 'c1' },
      ),
    );
    const afterFirst = fs.readFileSync(path.join(root, 'b.txt'), 'utf8');
    // The person copied b over a. The model now asks again for its own direction (a over b).
    fs.writeFileSync(path.join(root, 'a.txt'), 'A\n');
    const second: any = await settle(
      g.callTool(
        'copy_file',
        { source: '/a.txt', destination: '/b.txt', overwrite: true },
        { toolCallId: 'c2' },
      ),
    );
    const b = fs.readFileSync(path.join(root, 'b.txt'), 'utf8');
    fs.rmSync(root, { recursive: true, force: true });
    expect(afterFirst).toBe('B precious\n');
    expect({ asked: asked.length, b, secondOk: second?.ok }).toEqual({
      asked: 2,
      b: 'B precious\n',
      secondOk: false,
    });
  });

  it('read_many_files redirected by the person (secret.txt -> a.txt) + remember file: the secret is never read unasked', async () => {
    const root = setup({});
    fs.mkdirSync(path.join(root, 'priv'));
    fs.writeFileSync(path.join(root, 'priv/a.txt'), 'A\n');
    fs.writeFileSync(path.join(root, 'priv/secret.txt'), 'TOP SECRET\n');
    const sb = new Sandbox({
      mounts: [{ hostPath: path.join(root, 'priv'), mountPoint: '/priv', mode: 'ro', readApproval: true }],
    });
    const asked: string[] = [];
    const g = new ApprovalToolset(new FileSystemToolset(sb), {
      approve: (req) => {
        asked.push(JSON.stringify(req.args));
        return asked.length === 1
          ? { approved: true, overrideArgs: { paths: ['/priv/a.txt'] }, remember: { scope: 'file' } }
          : { approved: false, note: 'no' };
      },
    });
    const first = await settle(
      g.callTool('read_many_files', { paths: ['/priv/secret.txt'] }, { toolCallId: 'c1' }),
    );
    const second: any = await settle(
      g.callTool('read_many_files', { paths: ['/priv/secret.txt'] }, { toolCallId: 'c2' }),
    );
    fs.rmSync(root, { recursive: true, force: true });
    const leaked = JSON.stringify(second).includes('TOP SECRET');
    expect({ firstRefused: first instanceof TypeError, asked: asked.length, leaked }).toMatchObject({
      leaked: false,
    });
  });
});
