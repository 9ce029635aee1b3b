import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Tests that run the built pds (bin/pds.js → dist/) or read the bundle: `npm test` builds first. */
const BUILT = [
  'test/process/**/*.test.ts',
  'test/client/bundle-graph.test.ts',
  'test/client/deployed-bundle.test.ts',
  'test/client/mcp-config.test.ts',
  'test/client/process.test.ts',
  'test/client/auth-web.test.ts',
];
/** The sandbox runs shells in worker threads: seconds a test, so outside the quick loop. */
const SANDBOX = ['test/client/sandbox-*.test.ts', 'test/emulator/sandbox*.test.ts', 'test/emulator/bounds.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['test/helpers/setup-file.ts'],
    // Deadlines a loaded 2-core machine meets: they catch a hang, they measure nothing.
    testTimeout: 60_000,
    // Read from process.env by Node itself (dates; readline goes line-only under TERM=dumb), not only by pds.
    env: { TZ: 'UTC', TERM: 'xterm-256color' },
    hookTimeout: 60_000,
    // Most tests wait on a child process, a socket or an emulator's latency rather than compute, so
    // one worker per core leaves cores idle (vitest's default is one fewer than the cores: a single
    // worker on two). Three on two cores halves the wall time; more only adds contention.
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // A worker keeps the modules it has loaded from one test file to the next instead of loading
    // src/ again for each: that halves the CPU of the quick loop. Each file still gets its own TMPDIR
    // and HOME (setup-file.ts), and no test mocks a module or leaves a global changed.
    isolate: false,
    // `npm run test:unit` (vitest --project unit) is the loop to run after every change: pure
    // functions, views, parsers and verbs in-process against the emulator, no build needed.
    // `npm test` runs both projects.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/client/**/*.test.ts', 'test/emulator/**/*.test.ts'],
          exclude: [...BUILT, ...SANDBOX],
        },
      },
      { extends: true, test: { name: 'process', include: [...BUILT, ...SANDBOX] } },
    ],
  },
});
