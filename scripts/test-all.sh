#!/usr/bin/env bash
# The whole test suite, as the README's second command runs it on a fresh Debian/Ubuntu machine:
# system packages, npm dependencies, format + lint + type-checks + unit/integration tests, the
# keychain tests inside a private D-Bus session with an unlocked gnome-keyring, and the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
[ -d node_modules/.bin ] || npm ci --no-audit --no-fund
npm run check
npm run build
# Keychain tests: a private session bus with a throwaway gnome-keyring (its own data dir, unlocked
# with a throwaway password — never the user's login keyring), so @napi-rs/keyring talks to a real
# Secret Service.
if [ -n "$(ls cli/oauth/*.keychain.test.ts 2>/dev/null)" ]; then
  keyrings=$(mktemp -d)
  trap 'rm -rf "$keyrings"' EXIT
  KEYRINGS="$keyrings" dbus-run-session -- bash -c 'echo -n ci | XDG_DATA_HOME="$KEYRINGS" gnome-keyring-daemon --unlock --components=secrets >/dev/null && npx vitest run --config vitest.keychain.config.ts'
fi
if [ -n "$(ls e2e/*.spec.ts 2>/dev/null)" ]; then
  # The browser tests write screenshots under test-results/ only; the committed ones in docs/ change
  # when asked (UPDATE_SCREENSHOTS=1). A run that touched docs/ fails, so a fresh clone stays clean.
  docs_before=$(git status --porcelain -- docs 2>/dev/null || true)
  npx playwright test
  docs_after=$(git status --porcelain -- docs 2>/dev/null || true)
  if [ "${UPDATE_SCREENSHOTS:-}${UPDATE_SCREENSHOT:-}" = "" ] && [ "$docs_before" != "$docs_after" ]; then
    echo "The browser tests changed files under docs/ (they should write to test-results/ only):" >&2
    echo "$docs_after" >&2
    exit 1
  fi
fi
