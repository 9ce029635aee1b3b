#!/usr/bin/env bash
# action.yml's install step: pds from the action's checkout (dependencies from the lock file, then
# the build), so the action runs the code of the ref the workflow names. The build's bundler needs
# Node 20.19 or later (pds itself runs on 20.18.1): a runner's older Node is said before anything
# is installed (actions/setup-node picks a newer one).
set -euo pipefail
cd "${GITHUB_ACTION_PATH:?}"
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
  echo "::error title=pds upload::the action needs Node 20.19 or later to build pds; this runner has $(node --version): add actions/setup-node with node-version: 20 (or later) before it"
  exit 2
fi
npm ci --no-audit --no-fund --loglevel=error
npm run --silent build
node bin/pds.js --version
