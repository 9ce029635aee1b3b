// Injected by scripts/build.js wherever bundled CommonJS code calls require(): the bundle gets
// one require function, made once, rather than one made by every chunk at load.
import { createRequire } from 'node:module';

const bundleRequire = createRequire(import.meta.url);
export { bundleRequire as require };
