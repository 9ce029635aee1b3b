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
# One path (or glob, or tag) a line: names with spaces stay whole.
lines() {
  local line
  while IFS= read -r line; do
    line=${line%$'\r'}
    if [ -n "$line" ]; then printf '%s\0' "$line"; fi
  done <<<"$1"
}
while IFS= read -r -d '' path; do args+=("$path"); done < <(lines "${INPUT_FILES:-}")
fail() {
  echo "::error title=pds upload::$1"
  exit 2
}
boolean() { # name value flag
  case "$2" in
    true) args+=("$3") ;;
    false | '') ;;
    *) fail "$1 takes true or false" ;;
  esac
}
case "${INPUT_SKIP_EXISTING:-name}" in
  name | true) args+=(--skip-existing) ;;
  content) args+=(--skip-existing=content) ;;
  false | '') ;;
  *) fail 'skip-existing takes name, content or false' ;;
esac
boolean wait "${INPUT_WAIT-true}" --wait
boolean fail-fast "${INPUT_FAIL_FAST:-false}" --fail-fast
boolean recursive "${INPUT_RECURSIVE:-false}" --recursive
if [ -n "${INPUT_CONCURRENCY:-}" ]; then args+=(--concurrency "$INPUT_CONCURRENCY"); fi
while IFS= read -r -d '' glob; do args+=(--include "$glob"); done < <(lines "${INPUT_INCLUDE:-}")
while IFS= read -r -d '' glob; do args+=(--exclude "$glob"); done < <(lines "${INPUT_EXCLUDE:-}")
while IFS= read -r -d '' tag; do args+=(--tag "$tag"); done < <(lines "${INPUT_TAGS:-}")
if [ -n "${INPUT_REPORT_JUNIT:-}" ]; then args+=(--report "junit=$INPUT_REPORT_JUNIT"); fi
if [ -n "${INPUT_REPORT_JSON:-}" ]; then args+=(--report "json=$INPUT_REPORT_JSON"); fi
# The statement context: each input that is set becomes its flag; pds checks the values.
for pair in accounting-period:ACCOUNTING_PERIOD currency-royalty:CURRENCY_ROYALTY \
  currency-transaction:CURRENCY_TRANSACTION payee:PAYEE payor:PAYOR scenario:SCENARIO \
  target-family:TARGET_FAMILY folder:FOLDER; do
  variable="INPUT_${pair#*:}"
  if [ -n "${!variable:-}" ]; then args+=("--${pair%%:*}" "${!variable}"); fi
done
# args: split at white space, never expanded as globs or variables.
if [ -n "${INPUT_ARGS:-}" ]; then
  read -r -a extra <<<"$(tr '\r\n' '  ' <<<"$INPUT_ARGS")"
  args+=("${extra[@]}")
fi
node "${GITHUB_ACTION_PATH:?}/action/pds.mjs" "${args[@]}"
