#!/usr/bin/env bash
# The action's upload step, a file of its own so that a test can run it as the runner does. pds
# itself writes the annotations, the step summary and the outputs (GITHUB_ACTIONS is set on a
# runner); an input this script refuses gets the same three, as pds's own failures do.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# A failure of the step's inputs, said as pds says its own: one annotation, a summary section and
# the exit-code and error outputs (the messages are this script's own words, no input's value).
fail() { # code message hint
  echo "::error title=pds upload::$2"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '### pds upload failed (exit %s)\n\n%s\n\n**In CI:** %s\n\n' "$1" "$2" "$3" >>"$GITHUB_STEP_SUMMARY"
  fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then printf 'exit-code=%s\nerror=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; fi
  exit "$1"
}
input_error() { fail 2 "$1" "fix the step's inputs: the message says which"; }

token=${INPUT_TOKEN:-}
if [ -z "$token" ]; then
  fail 3 'the token input is empty' \
    'the secret it names (e.g. secrets.PDS_TOKEN) is not set for this repository or its environment, or the run is for a pull request from a fork, which GitHub gives no secrets'
fi
# Masked before anything else is printed: the runner hides it in every later line of the log.
echo "::add-mask::$token"
export PDS_TOKEN=$token
unset INPUT_TOKEN
export PDS_PROJECT=${INPUT_PROJECT:-}
if [ -n "${INPUT_API_URL:-}" ]; then export PDS_API_URL=$INPUT_API_URL; fi
# No profile of the runner's user is read or written. The directory is in RUNNER_TEMP, which the
# runner empties after the job: nothing here removes it, as pds replaces this shell (exec, below).
PDS_CONFIG_DIR=$(mktemp -d "${RUNNER_TEMP:-/tmp}/pds-config.XXXXXX")
export PDS_CONFIG_DIR

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
boolean() { # name value flag
  case "$2" in
    true) args+=("$3") ;;
    false | '') ;;
    *) input_error "the $1 input takes true or false" ;;
  esac
}
case "${INPUT_SKIP_EXISTING:-name}" in
  name | true) args+=(--skip-existing) ;;
  content) args+=(--skip-existing=content) ;;
  false | '') ;;
  *) input_error 'the skip-existing input takes name, content or false' ;;
esac
boolean wait "${INPUT_WAIT-true}" --wait
boolean fail-fast "${INPUT_FAIL_FAST:-false}" --fail-fast
boolean recursive "${INPUT_RECURSIVE:-false}" --recursive
if [ -n "${INPUT_CONCURRENCY:-}" ]; then args+=(--concurrency "$INPUT_CONCURRENCY"); fi
if [ -n "${INPUT_BATCH_TIMEOUT:-}" ]; then args+=(--batch-timeout "$INPUT_BATCH_TIMEOUT"); fi
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
# The step's stdout is the job's log, read by people and by the runner: pds's table (a view, which
# pds guards against lines a runner would obey) rather than its TSV (data, which pds never alters).
# `args: --json` (or --format) still chooses data; the reports and outputs carry it too.
export PDS_FORMAT=table
# exec: pds replaces this shell, so a cancelled job's SIGINT (sent to the step's own process, which
# the step's `exec bash` made this one) reaches pds, which stops its uploads and writes its reports.
exec node "$here/pds.mjs" "${args[@]}"
