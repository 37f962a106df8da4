import type { InferToolInput } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type { SandboxToolSet } from '../../adapters/ai-sdk.js';
import type { ToolOutcome } from '../../src/contract/tool-outcome.js';
import type { EditFileInput } from '../../src/tools/edit-file.js';

describe('adapter types', () => {
  it('carries the zod-inferred tool inputs into the AI SDK tool types', () => {
    expectTypeOf<InferToolInput<SandboxToolSet['edit_file']>>().toEqualTypeOf<EditFileInput>();
    expectTypeOf<InferToolInput<SandboxToolSet['read_file']>>().toEqualTypeOf<{
      path: string;
      offset?: number | undefined;
      limit?: number | undefined;
      hashes?: boolean | undefined;
      head?: number | undefined;
      tail?: number | undefined;
    }>();
    expectTypeOf<EditFileInput>().toEqualTypeOf<{
      path: string;
      old_string: string;
      new_string: string;
      replace_all?: boolean | undefined;
      base_sha256?: string | undefined;
    }>();
    expectTypeOf<SandboxToolSet['write_file']>().toHaveProperty('execute');
    expectTypeOf<ToolOutcome>().toHaveProperty('ok');
  });
});
