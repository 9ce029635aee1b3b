// The GitHub Action runs pds from one committed file, action/pds.mjs, with no node_modules beside it
// (scripts/build-action.js). That build swaps this module for one whose ACTION_BUILD is true, so the
// few features that need a package outside the bundle (a native addon, wasm, a browser, the MCP
// server, the sandbox) say so rather than fail on a missing module.
import { UsageError } from '../errors.js';

export const ACTION_BUILD: boolean = false;

/** Throws, in the action's build only, that `feature` is not in it. */
export function requireFullBuild(feature: string): void {
  if (ACTION_BUILD) {
    throw new UsageError(`${feature} is not in the GitHub Action's build of pds: install pds with npm to use it`);
  }
}
