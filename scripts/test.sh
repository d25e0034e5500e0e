#!/usr/bin/env bash
# Runs every test: type check, unit and integration (vitest), then the browser tests (Playwright
# on Debian's Chromium against the production build). Installs Chromium when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  echo "Chromium is missing: installing Debian's package (never a downloaded browser build)."
  if [ "$(id -u)" -ne 0 ]; then
    echo "Not root: install it with 'sudo apt-get install -y chromium' or set CHROMIUM_PATH." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

echo "== Type check"
npx tsc --noEmit

echo "== Unit and integration tests"
npx vitest run

echo "== Build"
npm run build --silent

echo "== Browser tests (JavaScript off and on)"
npx playwright test

echo "All tests passed."
