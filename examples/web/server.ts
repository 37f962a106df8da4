import http from 'node:http';
import { convertToModelMessages, type LanguageModel, stepCountIs, streamText, type UIMessage } from 'ai';
import { aiSdkTools } from '../../adapters/ai-sdk.js';
import { sandboxApprovalResponse } from '../../adapters/ai-sdk-ui.js';
import { DeferredApprovals } from '../../src/approval/deferred/deferred-approvals.js';
import type { DeferredApprovalStore } from '../../src/approval/deferred/types.js';
import { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';
import { bundleClient } from './bundle-client.js';
import { offlineModel } from './offline-model.js';
import { PAGE } from './page.js';
import { demoWorkspace } from './workspace.js';

export interface WebDemoOptions {
  /** The model; the offline demo model by default. */
  model?: LanguageModel;
  /** Where deferred approvals wait between requests (in-memory by default). */
  store?: DeferredApprovalStore;
  /** Directory to copy the sample project into (a fresh temp dir by default). */
  workspaceDir?: string;
  port?: number;
  host?: string;
}

const SYSTEM =
  'You edit a small TypeScript project through sandboxed file tools (/src read-write, /docs read-only). Read files before editing; every change is shown to the user for approval.';
const MAX_BODY = 5 * 1024 * 1024;

/**
 * The AI SDK web flow end to end: each POST /api/chat is a fresh toolset
 * (as in a serverless deployment); an approval asked in one request is
 * answered in the browser and executed in the next, bound to what was shown.
 */
export async function startWebDemo(options: WebDemoOptions = {}) {
  const workspace = demoWorkspace(options.workspaceDir);
  const deferred = new DeferredApprovals(options.store ? { store: options.store } : {});
  const model = options.model ?? (offlineModel() as unknown as LanguageModel);
  const script = await bundleClient();

  async function chat(body: { id?: unknown; messages?: UIMessage[] }): Promise<Response> {
    const messages = body.messages ?? [];
    // Approvals are scoped by conversation (useChat sends its chat id): call ids repeat across chats.
    // In an app with accounts, check that the chat belongs to the signed-in user before this.
    const approvals = deferred.forConversation(String(body.id ?? ''));
    const tools = aiSdkTools(new FileSystemToolset(workspace.sandbox()), {
      approval: { mode: 'native', deferred: approvals },
    });
    const result = streamText({
      model,
      system: SYSTEM,
      tools,
      messages: await convertToModelMessages(messages),
      stopWhen: stepCountIs(8),
    });
    return sandboxApprovalResponse(result, { deferred: approvals, originalMessages: messages });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`error: ${error instanceof Error ? error.message : String(error)}`);
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const security = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
    if (req.method === 'GET' && url.pathname === '/') {
      res.writeHead(200, {
        ...security,
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'",
      });
      res.end(PAGE);
    } else if (req.method === 'GET' && url.pathname === '/app.js') {
      res.writeHead(200, { ...security, 'content-type': 'text/javascript; charset=utf-8' });
      res.end(script);
    } else if (req.method === 'POST' && url.pathname === '/api/chat') {
      const body = JSON.parse(await readBody(req)) as { id?: unknown; messages?: UIMessage[] };
      await send(await chat(body), res);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  }

  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as { port: number };
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}/`,
    workspaceDir: workspace.dir,
    deferred,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Streams a fetch Response into Node's response. */
async function send(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
  res.end();
}
