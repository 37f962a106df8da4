import { type ChildProcess, spawn } from 'node:child_process';
import { BIN, REPO } from '../mcp/stdio-client.js';

/** A raw newline-JSON client over the real server process: sends anything, sees every line. */
export interface Raw {
  proc: ChildProcess;
  lines: unknown[];
  stderr: () => string;
  send: (msg: unknown) => void;
  write: (raw: string | Buffer) => void;
  waitFor: (pred: (m: any) => boolean, ms?: number) => Promise<any>;
  request: (method: string, params: unknown, id?: string | number) => Promise<any>;
  close: () => Promise<void>;
}

let nextId = 1000;

export async function startRaw(args: string[], capabilities: Record<string, unknown> = {}): Promise<Raw> {
  const proc = spawn(process.execPath, ['--import', 'tsx', BIN, 'mcp', ...args], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: unknown[] = [];
  let err = '';
  let buf = '';
  const waiters: { pred: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  proc.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  proc.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    let nl = buf.indexOf('\n');
    while (nl !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      nl = buf.indexOf('\n');
      if (!line.trim()) continue;
      const m = JSON.parse(line);
      lines.push(m);
      for (const w of [...waiters]) {
        if (w.pred(m)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    }
  });
  const write = (raw: string | Buffer) => {
    proc.stdin!.write(raw);
  };
  const send = (msg: unknown) => write(`${JSON.stringify(msg)}\n`);
  const waitFor = (pred: (m: any) => boolean, ms = 20_000) =>
    new Promise<any>((resolve, reject) => {
      const seen = lines.find(pred);
      if (seen) return resolve(seen);
      const t = setTimeout(
        () => reject(new Error(`timeout; lines=${JSON.stringify(lines).slice(0, 1500)}`)),
        ms,
      );
      waiters.push({
        pred,
        resolve: (m) => {
          clearTimeout(t);
          resolve(m);
        },
      });
    });
  const request = (method: string, params: unknown, id: string | number = nextId++) => {
    send({ jsonrpc: '2.0', id, method, params });
    return waitFor((m) => m.id === id && ('result' in m || 'error' in m));
  };
  await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities,
    clientInfo: { name: 'raw', version: '1' },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const close = async () => {
    proc.stdin!.end();
    await new Promise((r) => {
      if (proc.exitCode !== null) return r(null);
      const t = setTimeout(() => {
        proc.kill();
        r(null);
      }, 3000);
      proc.once('exit', () => {
        clearTimeout(t);
        r(null);
      });
    });
  };
  return { proc, lines, stderr: () => err, send, write, waitFor, request, close };
}
