import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/contract/errors.js';
import { loadSetup } from '../../src/mcp/cli/load-config.js';
import { parseArgs } from '../../src/mcp/cli/parse-args.js';
import { tempDir } from '../helpers/temp-project.js';

const setup = (argv: string[], cwd: string) => loadSetup(parseArgs(['mcp', ...argv]), cwd);

describe('loadSetup', () => {
  it('resolves --mount host paths against the working directory; config paths against the config file', () => {
    const dir = tempDir({ 'work/src/a.ts': '', 'conf/data/x.md': '' });
    fs.writeFileSync(
      path.join(dir, 'conf/sandbox.json'),
      JSON.stringify({ mounts: [{ hostPath: 'data', mountPoint: '/data' }], approve: 'deny' }),
    );
    const s = setup(['--config', '../conf/sandbox.json', '--mount', './src:/src:rw'], path.join(dir, 'work'));
    const mounts = s.sandbox.mounts.map((m) => [m.mountPoint, m.mode, m.realRoot]);
    expect(mounts).toEqual([
      ['/data', 'ro', fs.realpathSync(path.join(dir, 'conf/data'))],
      ['/src', 'rw', fs.realpathSync(path.join(dir, 'work/src'))],
    ]);
    expect(s.approve).toBe('deny');
  });

  it('the command line wins over the config file; a policy file named in the config is loaded', () => {
    const dir = tempDir({ 'src/a.ts': '' });
    fs.writeFileSync(path.join(dir, 'policy.json'), JSON.stringify({ rules: [{ decision: 'approve' }] }));
    fs.writeFileSync(
      path.join(dir, 'c.json'),
      JSON.stringify({
        mounts: [{ hostPath: 'src', mountPoint: '/src' }],
        approve: 'policy',
        policy: 'policy.json',
      }),
    );
    expect(setup(['--config', 'c.json'], dir)).toMatchObject({
      approve: 'policy',
      policy: { rules: [{ decision: 'approve' }] },
    });
    expect(setup(['--config', 'c.json', '--approve', 'tty'], dir).approve).toBe('tty');
  });

  it('names what is wrong: unknown config keys, a bad policy, overlapping mounts', () => {
    const dir = tempDir({ 'src/a.ts': '' });
    fs.writeFileSync(path.join(dir, 'c.json'), JSON.stringify({ mounts: [], aprove: 'tty' }));
    expect(() => setup(['--config', 'c.json'], dir)).toThrow(/Unrecognized key.*aprove/);
    fs.writeFileSync(path.join(dir, 'p.json'), JSON.stringify({ rules: [{ decision: 'maybe' }] }));
    expect(() => setup(['--mount', 'src:/src', '--policy', 'p.json'], dir)).toThrow(
      /Invalid policy file .*rules\.0\.decision/,
    );
    expect(() => setup(['--mount', '.:/a', '--mount', 'src:/b'], dir)).toThrow(SandboxError);
  });
});
