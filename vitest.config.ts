import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    // closing a file's servers (worker pools) and dropping its databases takes longer than 10 s on a busy machine
    hookTimeout: 120_000,
  },
});
