import process from 'node:process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC "Invalid Request": what an over-limit message gets back. */
export const MESSAGE_TOO_LARGE = -32600;

/** Bytes a JSON string may take per byte of content in the worst case (`\u0001` for one control byte). */
const JSON_ESCAPE_FACTOR = 6;
/** Room for the envelope around the content: method, other arguments, ids. */
const FRAMING_BYTES = 1024 * 1024;

/** The message size that lets through any file of `maxFileBytes`, however its content escapes. */
export function messageLimitFor(maxFileBytes: number): number {
  return maxFileBytes * JSON_ESCAPE_FACTOR + FRAMING_BYTES;
}

export interface SizedStdioOptions {
  /** Largest message accepted, in bytes (without the newline). */
  maxMessageBytes: number;
  /** Where refusals are logged (stdout is the protocol). */
  log?: (line: string) => void;
}

/**
 * Newline-delimited JSON-RPC over stdio, like the SDK's StdioServerTransport but
 * with a configurable message limit and no silent death: a message over the
 * limit is skipped to its newline (never buffered whole), answered with a
 * JSON-RPC error naming both sizes when its id can be found, and logged on
 * stderr. Chunks are kept in a list and joined once per message, so a large
 * message costs one copy, not one per chunk.
 */
export class SizedStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while skipping an over-limit message: its first bytes, last bytes and length so far. */
  private skipping: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  private started = false;
  private readonly log: (line: string) => void;

  constructor(
    private readonly options: SizedStdioOptions,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('SizedStdioServerTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.size = 0;
    this.skipping = undefined;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private readonly onData = (data: Buffer | string) => {
    let chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    while (chunk.length > 0) {
      const nl = chunk.indexOf(0x0a);
      const part = nl === -1 ? chunk : chunk.subarray(0, nl);
      this.take(part);
      if (nl === -1) break;
      this.endOfLine();
      chunk = chunk.subarray(nl + 1);
    }
  };

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += part.length;
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, part]), TAIL_BYTES);
      return;
    }
    if (this.size + part.length > this.options.maxMessageBytes) {
      const seen = Buffer.concat([...this.chunks, part]);
      this.skipping = {
        head: seen.subarray(0, HEAD_BYTES),
        tail: lastBytes(seen, TAIL_BYTES),
        bytes: seen.length,
      };
      this.chunks = [];
      this.size = 0;
      return;
    }
    // Copied: the stream may reuse its buffer.
    this.chunks.push(Buffer.from(part));
    this.size += part.length;
  }

  private endOfLine(): void {
    if (this.skipping) {
      const skipped = this.skipping;
      this.skipping = undefined;
      this.refuse(skipped.head, skipped.tail, skipped.bytes);
      return;
    }
    const line = Buffer.concat(this.chunks, this.size).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    this.onmessage?.(message);
  }

  /** Answers an over-limit message: an error response when its id is found, and always a line on stderr. */
  private refuse(head: Buffer, tail: Buffer, bytes: number): void {
    const limit = this.options.maxMessageBytes;
    const text = `A message of ${bytes} bytes exceeds this server's limit of ${limit} bytes (set from the largest file it accepts); it was not read. Send smaller content (e.g. edit_file or patch_file instead of rewriting the file).`;
    const id = messageId(head, tail);
    this.log(
      `sandbox-approval: refused a ${bytes}-byte message over the ${limit}-byte limit${id === undefined ? ' (no id found, no reply sent)' : ''}`,
    );
    if (id === undefined) return;
    void this.send({
      jsonrpc: '2.0',
      id,
      error: { code: MESSAGE_TOO_LARGE, message: text, data: { bytes, limit } },
    });
  }
}

const HEAD_BYTES = 512;
const TAIL_BYTES = 512;

const lastBytes = (b: Buffer, n: number) => (b.length > n ? Buffer.from(b.subarray(b.length - n)) : b);

/**
 * The request id of a message seen only by its ends: JSON-RPC clients put `id`
 * either first or last (the SDK appends it after `params`). A string id is
 * taken only when it is short and plain, so content cannot pose as the id.
 */
function messageId(head: Buffer, tail: Buffer): string | number | undefined {
  const atEnd = /"id"\s*:\s*(-?\d+|"[^"\\]{0,200}")\s*\}\s*\r?$/.exec(tail.toString('utf8'));
  const atStart = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"[^"\\]{0,200}")/.exec(
    head.toString('utf8'),
  );
  const raw = atEnd?.[1] ?? atStart?.[1];
  return raw === undefined ? undefined : (JSON.parse(raw) as string | number);
}
