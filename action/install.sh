#!/usr/bin/env bash
# The action's install step: nothing to install. pds runs from pds.mjs beside this script, one file
# holding all an upload needs (scripts/build-action.js), so this checks the runner's Node (pds needs
# 20.18.1 or later; GitHub's runners have it, actions/setup-node picks another), puts the `pds`
# command beside it on the PATH of the job's later steps (a gate step can run `pds statements
# check`), and gives its path as the `pds-path` output.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! node -e 'const [a, b, c] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && (b > 18 || (b === 18 && c >= 1))) ? 0 : 1)'; then
  message="pds needs Node 20.18.1 or later; this runner has $(node --version 2>/dev/null || echo 'no node'): add actions/setup-node with node-version: 20 (or later) before it"
  echo "::error title=pds upload::$message"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### pds upload failed (exit 2)\n\n%s\n\n' "$message" >>"$GITHUB_STEP_SUMMARY"
  fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then printf 'exit-code=2\nerror=%s\n' "$message" >>"$GITHUB_OUTPUT"; fi
  exit 2
fi
if [ -n "${GITHUB_PATH:-}" ]; then printf '%s\n' "$here" >>"$GITHUB_PATH"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then printf 'pds-path=%s\n' "$here/pds" >>"$GITHUB_OUTPUT"; fi
# exec: a cancelled job's signal reaches node itself (the runner signals the step's own pid).
exec node "$here/pds.mjs" --version
