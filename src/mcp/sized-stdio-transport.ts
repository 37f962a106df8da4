import process from 'node:process';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC "Invalid Request": what an over-limit message gets back. */
export const MESSAGE_TOO_LARGE = -32600;
/** JSON-RPC "Parse error": a line that is not JSON. */
const PARSE_ERROR = -32700;
/** JSON-RPC "Invalid Request": JSON that is not a JSON-RPC message. */
const INVALID_REQUEST = -32600;

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
    // One byte over the limit is kept: it may be the \r of a CRLF line end (framing, not content).
    if (this.size + part.length > this.options.maxMessageBytes + 1) {
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
    let bytes = Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    if (bytes.at(-1) === 0x0d) bytes = bytes.subarray(0, -1);
    if (bytes.length > this.options.maxMessageBytes) {
      this.refuse(bytes.subarray(0, HEAD_BYTES), lastBytes(bytes, TAIL_BYTES), bytes.length);
      return;
    }
    const line = bytes.toString('utf8');
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      this.malformed(PARSE_ERROR, 'Parse error: the message is not valid JSON', null, error);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) {
      const id = requestIdOf(json);
      this.malformed(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message', id, parsed.error);
      return;
    }
    // The SDK's parsing drops an own `__proto__` key silently (a hidden argument would vanish
    // instead of being refused), so such a call is answered here, from the raw JSON.
    const hidden = protoArgument(json);
    if (hidden !== undefined) {
      this.log(`sandbox-approval: refused a tools/call with a "__proto__" argument key (${hidden})`);
      void this.send({
        jsonrpc: '2.0',
        id: (json as { id: string | number }).id,
        result: protoRefusal(hidden),
      });
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** A line that is not a JSON-RPC message: an error reply (id null when none is known) and a stderr line. */
  private malformed(code: number, message: string, id: string | number | null, error: unknown): void {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    this.log(`sandbox-approval: ${message} (${why}); replied ${code}`);
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    void this.send({ jsonrpc: '2.0', id: id as string | number, error: { code, message } });
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

function requestIdOf(json: unknown): string | number | null {
  const id = json && typeof json === 'object' ? (json as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Where a tools/call's arguments hold an own `__proto__` key (at any depth), as a path; else undefined. */
function protoArgument(json: unknown): string | undefined {
  const msg = json as { method?: unknown; id?: unknown; params?: { arguments?: unknown } };
  if (msg.method !== 'tools/call' || msg.id === undefined) return undefined;
  const stack: [unknown, string][] = [[msg.params?.arguments, 'arguments']];
  // Iterative: deeply nested input must not overflow the stack.
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (!value || typeof value !== 'object') continue;
    if (Object.hasOwn(value, '__proto__')) return `${at}.__proto__`;
    for (const [k, v] of Object.entries(value)) if (v && typeof v === 'object') stack.push([v, `${at}.${k}`]);
  }
  return undefined;
}

function protoRefusal(at: string) {
  const error = {
    code: 'invalid_argument',
    message: `Unknown argument "__proto__" (at ${at}); nothing was done. Remove it and call again with only the documented arguments.`,
  };
  return {
    isError: true,
    content: [{ type: 'text', text: `error ${error.code}: ${error.message}` }],
    structuredContent: { error },
  };
}
