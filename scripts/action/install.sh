#!/usr/bin/env bash
# action.yml's install step: nothing to install. pds runs from action/pds.mjs, one committed file
# holding all an upload needs (scripts/build-action.js), so this only checks the runner's Node:
# pds needs 20.18.1 or later (GitHub's runners have it; actions/setup-node picks another).
set -euo pipefail
if ! node -e 'const [a, b, c] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && (b > 18 || (b === 18 && c >= 1))) ? 0 : 1)'; then
  echo "::error title=pds upload::pds needs Node 20.18.1 or later; this runner has $(node --version 2>/dev/null || echo 'no node'): add actions/setup-node with node-version: 20 (or later) before it"
  exit 2
fi
node "${GITHUB_ACTION_PATH:?}/action/pds.mjs" --version
