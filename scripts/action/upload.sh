#!/usr/bin/env bash
# action.yml's upload step, a file of its own so that a test can run it. pds itself writes the
# annotations, the step summary and the outputs (GITHUB_ACTIONS is set on a runner).
set -euo pipefail
token=${INPUT_TOKEN:-}
if [ -z "$token" ]; then
  echo '::error title=pds upload::the token input is empty'
  exit 2
fi
# Masked before anything else is printed: the runner hides it in every later line of the log.
echo "::add-mask::$token"
export PDS_TOKEN=$token
unset INPUT_TOKEN
export PDS_PROJECT=${INPUT_PROJECT:-}
if [ -n "${INPUT_API_URL:-}" ]; then export PDS_API_URL=$INPUT_API_URL; fi
# No profile of the runner's user is read or written.
PDS_CONFIG_DIR=$(mktemp -d "${RUNNER_TEMP:-/tmp}/pds-config.XXXXXX")
export PDS_CONFIG_DIR
trap 'rm -rf "$PDS_CONFIG_DIR"' EXIT

args=(upload "${INPUT_KIND:-statement}")
# One path a line: names with spaces stay whole.
while IFS= read -r line; do
  line=${line%$'\r'}
  if [ -n "$line" ]; then args+=("$line"); fi
done <<<"${INPUT_FILES:-}"
case "${INPUT_SKIP_EXISTING:-name}" in
  name | true) args+=(--skip-existing) ;;
  content) args+=(--skip-existing=content) ;;
  false | '') ;;
  *)
    echo '::error title=pds upload::skip-existing takes name, content or false'
    exit 2
    ;;
esac
case "${INPUT_WAIT:-false}" in
  true) args+=(--wait) ;;
  false | '') ;;
  *)
    echo '::error title=pds upload::wait takes true or false'
    exit 2
    ;;
esac
node "${GITHUB_ACTION_PATH:?}/bin/pds.js" "${args[@]}"
