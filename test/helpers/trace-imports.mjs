// Preload for process tests: reports every module file this process loads, on stderr as
// `import <url>`, so a test can check what start-up pulls in: ES modules as they load (a loader
// hook), CommonJS ones (the bundle's .cjs files) from the require cache as the process exits.
import { writeSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

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

const requireCache = createRequire(import.meta.url).cache;
process.on('exit', () => {
  for (const file of Object.keys(requireCache)) {
    if (file.endsWith('.cjs')) writeSync(2, `import ${pathToFileURL(file).href}\n`);
  }
});
