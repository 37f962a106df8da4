/** A hand-written LanguageModel (spec v3, accepted by ai@6 and ai@7) that plays a script of steps: for the offline examples and the adapter tests. */
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

export type Step = { calls: Array<{ id: string; name: string; input: unknown }> } | { text: string };

export function scriptedModel(steps: Step[]) {
  const prompts: unknown[][] = [];
  let index = 0;
  const next = (prompt: unknown[]) => {
    prompts.push(prompt);
    const step = steps[Math.min(index++, steps.length - 1)]!;
    if ('text' in step) {
      return {
        content: [{ type: 'text', text: step.text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage,
        warnings: [],
      };
    }
    return {
      content: step.calls.map((c) => ({
        type: 'tool-call',
        toolCallId: c.id,
        toolName: c.name,
        input: JSON.stringify(c.input),
      })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    };
  };
  const model = {
    specificationVersion: 'v3' as const,
    provider: 'scripted',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate({ prompt }: { prompt: unknown[] }) {
      return next(prompt);
    },
    async doStream({ prompt }: { prompt: unknown[] }) {
      const result = next(prompt);
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }];
      for (const c of result.content as Array<Record<string, unknown>>) {
        if (c.type === 'text')
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: c.text },
            { type: 'text-end', id: 't' },
          );
        else parts.push(c);
      }
      parts.push({ type: 'finish', finishReason: result.finishReason, usage });
      return {
        stream: new ReadableStream({
          start: (c) => {
            for (const p of parts) c.enqueue(p);
            c.close();
          },
        }),
      };
    },
  };
  /** Every tool result the model was shown, as JSON text. */
  const seenToolResults = () =>
    JSON.stringify(prompts.flat().filter((m) => (m as { role: string }).role === 'tool'));
  return { model, prompts, seenToolResults };
}
