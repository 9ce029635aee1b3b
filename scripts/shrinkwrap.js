// The package's published lock. prepack writes npm-shrinkwrap.json from package-lock.json, and npm
// honours it when the package is installed (`npm install -g pds-0.1.0.tgz`): a user gets the
// versions the tests ran with, and an install needs nothing beyond the tarballs `npm ci` put in
// npm's cache (it works --offline). postpack (`--remove`) takes it away: the repository keeps one
// lock file.
import { copyFileSync, rmSync } from 'node:fs';

const shrinkwrap = new URL('../npm-shrinkwrap.json', import.meta.url);
if (process.argv.includes('--remove')) rmSync(shrinkwrap, { force: true });
else copyFileSync(new URL('../package-lock.json', import.meta.url), shrinkwrap);
