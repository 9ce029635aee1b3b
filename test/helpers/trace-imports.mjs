// Preload for process tests: reports every module file this process loads, on stderr as
// `import <url>`, so a test can check what start-up pulls in.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function load(url, context, next) {
        if (url.startsWith('file:')) process.stderr.write('import ' + url + '\\n');
        return next(url, context);
      }
    `),
);
