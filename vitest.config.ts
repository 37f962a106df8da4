import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Vitest's default is one worker per core but one: on a 2-core machine, one file at a
    // time, while most of the slow files wait on child processes, ptys and browsers.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
