import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'threads',
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
  },
});
