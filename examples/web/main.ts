// npm run demo:web — the AI SDK web flow with browser approvals. Offline by default; set OPENAI_API_KEY
// (and optionally OPENAI_MODEL) to talk to a real model.
import type { LanguageModel } from 'ai';
import { startWebDemo } from './server.js';

async function realModel(): Promise<LanguageModel | undefined> {
  if (!process.env.OPENAI_API_KEY) return undefined;
  const { openai } = await import('@ai-sdk/openai');
  return openai(process.env.OPENAI_MODEL ?? 'gpt-4.1-mini');
}

const model = await realModel();
const demo = await startWebDemo({ port: Number(process.env.PORT ?? 3000), ...(model ? { model } : {}) });
console.log(`sandbox-approval web demo (${model ? 'OpenAI' : 'offline scripted model'})`);
console.log(`workspace: ${demo.workspaceDir}`);
console.log(`open ${demo.url}`);
