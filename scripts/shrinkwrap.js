// The package's published lock. prepack writes npm-shrinkwrap.json from package-lock.json, and npm
// honours it when the package is installed (`npm install -g pds-0.1.0.tgz`): a user gets the
// versions the tests ran with, and an install needs nothing beyond the tarballs `npm ci` put in
// npm's cache (it works --offline). What it leaves out of package-lock.json, and why:
// ./shipped-lock.js. postpack (`--remove`) takes it away: the repository keeps one lock file.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { shippedLock } from './shipped-lock.js';

const shrinkwrap = new URL('../npm-shrinkwrap.json', import.meta.url);
if (process.argv.includes('--remove')) rmSync(shrinkwrap, { force: true });
else {
  const { lock, leftOut } = shippedLock(
    JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')),
  );
  writeFileSync(shrinkwrap, `${JSON.stringify(lock, null, 2)}\n`);
  const names = leftOut.map((location) =>
    location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length),
  );
  process.stderr.write(`npm-shrinkwrap.json written, without ${names.length} optional packages: ${names.join(', ')}\n`);
}
