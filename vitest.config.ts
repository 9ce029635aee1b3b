import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/helpers/setup-file.ts'],
    testTimeout: 20_000,
    // Read from process.env by Node itself (dates; readline goes line-only under TERM=dumb), not only by pds.
    env: { TZ: 'UTC', TERM: 'xterm-256color' },
    hookTimeout: 20_000,
  },
});
