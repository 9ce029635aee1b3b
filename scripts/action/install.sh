#!/usr/bin/env bash
# action.yml's install step: pds from the action's checkout (dependencies from the lock file, then
# the build that `prepare` runs), so the action runs the code of the ref the workflow names.
set -euo pipefail
cd "${GITHUB_ACTION_PATH:?}"
npm ci --no-audit --no-fund --loglevel=error
node bin/pds.js --version
