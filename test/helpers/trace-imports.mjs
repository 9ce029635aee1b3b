// Preload for process tests: reports every module file this process loads, on stderr as
// `import <url>`, so a test can check what start-up pulls in.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { writeSync } from 'node:fs';
      export async function load(url, context, next) {
        // Straight to fd 2: the hooks' thread forwards process.stderr to the main thread, which may
        // exit (pds --help is quick) before the last lines arrive.
        if (url.startsWith('file:')) writeSync(2, 'import ' + url + '\\n');
        return next(url, context);
      }
    `),
);
