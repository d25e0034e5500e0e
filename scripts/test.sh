#!/usr/bin/env bash
# Runs every test: type check, lint (ESLint and the import rules of dependency-cruiser), unit and
# integration (vitest), the browser tests (Playwright on Debian's Chromium against the production
# build), then builds the release binary and runs its smoke test, and ends with one summary line.
# Installs Debian's Chromium headless shell when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1; then
  echo "Chromium's headless shell is missing: installing Debian's package (never a downloaded browser build)."
  if [ "$(id -u)" -ne 0 ]; then
    echo "Not root: install it with 'sudo apt-get install -y chromium-headless-shell' or set CHROMIUM_PATH." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null
fi

results=tests/.tmp/results
rm -rf "$results" && mkdir -p "$results"
# The release binary's Node and native addon (a compile of minutes on a fresh machine) are prepared
# in the background at low priority from the start, so they overlap the other phases.
nice -n 15 node scripts/binary/build.mjs --prepare >"$results/binary-prepare.log" 2>&1 &
prepare_pid=$!
status=0
# Where the minutes go (CI should stay well under 25): each phase prints its wall time at its end.
phase_started=$SECONDS
phase() {
  if [ -n "${phase_name:-}" ]; then echo "-- $phase_name: $((SECONDS - phase_started)) s"; fi
  phase_name=$1
  phase_started=$SECONDS
  echo "== $1"
}

# The type check, the lint and the build are one process each, single-threaded for most of their
# time and independent (none reads what another writes): on 2 cores they run side by side, each
# into its own log, shown in this order once all three have ended.
phase "Type check, lint (ESLint, dependency-cruiser) and build, side by side"
npx tsc --noEmit >"$results/typecheck.log" 2>&1 &
typecheck_pid=$!
npm run lint --silent >"$results/lint.log" 2>&1 &
lint_pid=$!
npm run build --silent >"$results/build.log" 2>&1 &
build_pid=$!
for step in typecheck lint build; do
  pid_var="${step}_pid"
  step_status=0
  wait "${!pid_var}" || step_status=$?
  echo "-- $step: exit $step_status"
  cat "$results/$step.log"
  if [ "$status" -eq 0 ]; then status=$step_status; fi
done

if [ "$status" -eq 0 ]; then
  phase "Unit and integration tests"
  npx vitest run --reporter=default --reporter=json --outputFile.json="$results/vitest.json" || status=$?
fi

if [ "$status" -eq 0 ]; then
  phase "Browser tests (JavaScript off and on)"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$results/playwright.json" npx playwright test --reporter=list,json || status=$?
fi

if [ "$status" -eq 0 ]; then
  phase "Release binary: build dist/arc-connect, then its smoke test from an empty directory"
  wait "$prepare_pid" || { status=$?; cat "$results/binary-prepare.log"; }
  if [ "$status" -eq 0 ]; then node scripts/binary/build.mjs || status=$?; fi
  if [ "$status" -eq 0 ]; then
    npx vitest run --config tests/binary/vitest.config.mts --reporter=default --reporter=json \
      --outputFile.json="$results/binary.json" || status=$?
  fi
fi

phase "Summary"
node scripts/test-summary.mjs "$results"
echo "-- all: $SECONDS s"
exit "$status"
