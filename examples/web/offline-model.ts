import { randomUUID } from 'node:crypto';

/**
 * The demo's offline model (LanguageModel spec v3, accepted by ai@6 and ai@7):
 * it reacts to the last message instead of playing a fixed script. A user
 * message naming an action ("edit", "overwrite", "create", "delete", "move")
 * gets one tool call; a tool result gets a sentence saying what happened —
 * quoting the person's note when they denied the call.
 */
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

type Call = { toolName: string; input: Record<string, unknown> };

/** The calls the demo can make, by the word that asks for them (their strings are source code, `${…}` included). */
export const DEMO_CALLS: Record<string, Call> = {
  edit: {
    toolName: 'edit_file',
    input: {
      path: '/src/todo-list.ts',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source code the model writes
      old_string: "return [`${done}/${this.items.length} done`, ...lines].join('\\n');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source code the model writes
      new_string: "return [`${done} of ${this.items.length} done`, ...lines].join('\\n');",
    },
  },
  overwrite: {
    toolName: 'write_file',
    input: {
      path: '/src/format.ts',
      content:
        // biome-ignore lint/suspicious/noTemplateCurlyInString: source code the model writes
        "import type { TodoItem } from './todo-list.js';\n\n/** One line per item: a check box, the id and the title. */\nexport function formatItem(item: TodoItem): string {\n  return `[${item.done ? 'x' : ' '}] #${item.id} ${item.title}`;\n}\n",
    },
  },
  create: {
    toolName: 'write_file',
    input: {
      path: '/src/notes.md',
      content: '# Notes\n\n- summary reads "N of M done"\n- items are numbered\n',
    },
  },
  delete: { toolName: 'delete_file', input: { path: '/src/format.ts' } },
  move: { toolName: 'move_file', input: { source: '/src/format.ts', destination: '/src/formatting.ts' } },
};

const HELP = `I am the offline demo model. Ask me to ${Object.keys(DEMO_CALLS)
  .map((k) => `"${k}"`)
  .join(', ')} and I will call a sandbox tool; you approve or deny it here.`;

interface PromptMessage {
  role: string;
  content: string | Array<Record<string, unknown>>;
}

function textOf(m: PromptMessage): string {
  return typeof m.content === 'string'
    ? m.content
    : m.content
        .filter((p) => p.type === 'text')
        .map((p) => String(p.text))
        .join(' ');
}

/** What the model says after a tool result. */
function afterTool(m: PromptMessage): string {
  const parts = Array.isArray(m.content) ? m.content : [];
  return parts
    .filter((p) => p.type === 'tool-result')
    .map((p) => {
      const output = p.output as { type: string; value?: unknown; reason?: string };
      const name = String(p.toolName);
      if (output.type === 'execution-denied')
        return output.reason
          ? `You denied ${name} and said: "${output.reason}". I will not do that.`
          : `You denied ${name}. I will not do that.`;
      const text = typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
      const error = /^error (\w+): (.*)/.exec(text);
      return error ? `${name} was not applied (${error[1]}): ${error[2]}` : `Done: ${name} succeeded.`;
    })
    .join('\n');
}

function respond(prompt: PromptMessage[]) {
  const last = prompt.at(-1);
  if (last?.role === 'tool') return { text: afterTool(last) };
  const said = last ? textOf(last).toLowerCase() : '';
  const word = Object.keys(DEMO_CALLS).find((k) => said.includes(k));
  if (!word) return { text: HELP };
  const call = DEMO_CALLS[word]!;
  return {
    call: { toolCallId: `call-${randomUUID()}`, toolName: call.toolName, input: JSON.stringify(call.input) },
  };
}

export function offlineModel() {
  return {
    specificationVersion: 'v3' as const,
    provider: 'offline-demo',
    modelId: 'offline-demo',
    supportedUrls: {},
    async doGenerate({ prompt }: { prompt: PromptMessage[] }) {
      const r = respond(prompt);
      return {
        content: r.call ? [{ type: 'tool-call', ...r.call }] : [{ type: 'text', text: r.text }],
        finishReason: { unified: r.call ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
    async doStream({ prompt }: { prompt: PromptMessage[] }) {
      const r = respond(prompt);
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      if (r.call) parts.push({ type: 'tool-call', ...r.call });
      else
        parts.push(
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: r.text },
          { type: 'text-end', id: 't' },
        );
      parts.push({
        type: 'finish',
        finishReason: { unified: r.call ? 'tool-calls' : 'stop', raw: undefined },
        usage,
      });
      return {
        stream: new ReadableStream({
          start(c) {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  };
}
