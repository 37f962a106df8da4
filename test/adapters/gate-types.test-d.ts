import type { ToolSet } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { aiSdkTools, type SandboxToolSet } from '../../adapters/ai-sdk.js';
import { gatedToolset } from '../../src/approval/gated-toolset.js';
import type { Toolset } from '../../src/approval/toolset.js';
import type { FileSystemToolset } from '../../src/tools/filesystem-toolset.js';

describe('adapters over any Toolset', () => {
  it('keep the typed tool set for the file tools, and give a plain ToolSet for any other toolset', () => {
    expectTypeOf<FileSystemToolset>().toExtend<Toolset>();
    const custom = gatedToolset([]);
    const approval = { mode: 'native' } as const;
    expectTypeOf(aiSdkTools(custom, { approval })).toEqualTypeOf<ToolSet>();
    expectTypeOf(aiSdkTools({} as FileSystemToolset, { approval })).toEqualTypeOf<SandboxToolSet>();
  });
});
