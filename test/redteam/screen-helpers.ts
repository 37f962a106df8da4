import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ApprovalRequest } from '../../src/contract/approval-types.js';
import { ApprovalToolset, FileSystemToolset, Sandbox } from '../../src/index.js';
import { payloadText } from '../../src/mcp/index.js';
import { ApprovalCard } from '../../src/react/index.js';
import { renderPayload } from '../../src/terminal/index.js';
import { createStyle, stripAnsi } from '../../src/terminal/style.js';

export function mkdir(files: Record<string, string | Buffer> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-screen-'));
  for (const [rel, content] of Object.entries(files)) {
    const full = path.join(dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }
  return dir;
}

/** Runs a real tool call and returns the approval request it raised (denied, nothing written). */
export async function capture(
  dir: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<ApprovalRequest> {
  let req: ApprovalRequest | undefined;
  const toolset = new FileSystemToolset(Sandbox.fromDirectory(dir, { mode: 'rw' }));
  const gated = new ApprovalToolset(toolset, {
    approve: async (r: ApprovalRequest) => {
      req = r;
      return { approved: false };
    },
  });
  const res = await gated.callTool(tool, args);
  if (!req) throw new Error(`no approval asked: ${JSON.stringify(res).slice(0, 500)}`);
  return req;
}

export function terminalText(
  req: ApprovalRequest,
  color = false,
  width = 80,
): { title: string; warnings: string[]; body: string[] } {
  const r = renderPayload(req.payload, createStyle(color), width, req.args);
  const body: string[] = [];
  for (let i = 0; i < Math.min(r.body.count, 400); i++) body.push(r.body.line(i));
  return { title: r.title, warnings: r.warnings, body };
}

export function mcpText(req: ApprovalRequest): string {
  return payloadText(req);
}

export function cardHtml(req: ApprovalRequest): string {
  return renderToStaticMarkup(createElement(ApprovalCard, { payload: req.payload, onAnswer: () => {} }));
}

export { stripAnsi };
