import type { InferUIMessageChunk, UIMessage } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type { SandboxApprovalData, SandboxDataParts, SandboxUIMessage } from '../../adapters/ai-sdk.js';
import type { ApprovalPayload } from '../../src/contract/payloads.js';

describe('data-sandbox-approval typing', () => {
  it('a SandboxUIMessage part narrows to the typed payload', () => {
    type Part = SandboxUIMessage['parts'][number];
    type DataPart = Extract<Part, { type: 'data-sandbox-approval' }>;
    expectTypeOf<DataPart['data']>().toEqualTypeOf<SandboxApprovalData>();
    expectTypeOf<DataPart['data']['payload']>().toEqualTypeOf<ApprovalPayload>();
  });

  it('merges into an app’s own data parts and chunks', () => {
    type AppMessage = UIMessage<never, SandboxDataParts & { weather: { city: string } }>;
    type Chunk = Extract<InferUIMessageChunk<AppMessage>, { type: 'data-sandbox-approval' }>;
    expectTypeOf<Chunk['data']['toolCallId']>().toEqualTypeOf<string>();
  });
});
