import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/helpers/setup-file.ts'],
    // Deadlines a loaded 2-core machine meets: they catch a hang, they measure nothing.
    testTimeout: 60_000,
    // Read from process.env by Node itself (dates; readline goes line-only under TERM=dumb), not only by pds.
    env: { TZ: 'UTC', TERM: 'xterm-256color' },
    hookTimeout: 60_000,
  },
});
