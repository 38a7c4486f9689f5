#!/usr/bin/env bash
# Shared first half of `npm start` and `npm test`: dependencies, then an incremental build.
set -euo pipefail
cd "$(dirname "$0")/.."
# No third-party notices in our output: turbo's telemetry banner and update notice stay off.
export TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1 DO_NOT_TRACK=1
# `npm install`, not `npm ci`: the lock file can only list the platform-specific optional
# binaries (turbo, the resolver) that the registry it was written against serves, and `npm ci`
# refuses a lock without all of them. `npm install` honours the lock and tolerates that gap.
echo "==> installing dependencies"
npm install --no-audit --no-fund --loglevel=error
echo "==> building libs and apps"
# turbo's own report goes to a file; we print one line of progress, and the report only on a failure.
started=$SECONDS
report=$(mktemp)
trap 'rm -f "$report"' EXIT
if ! npx turbo run build --output-logs=errors-only >"$report" 2>&1; then
  cat "$report" >&2
  echo "==> build failed (the errors are above)" >&2
  exit 1
fi
tasks=$(sed -n 's/^ *Tasks: *\([0-9]*\) successful.*/\1/p' "$report")
cached=$(sed -n 's/^ *Cached: *\([0-9]*\) cached.*/\1/p' "$report")
echo "    ${tasks:-all} packages built in $((SECONDS - started)) s (${cached:-0} unchanged, from the cache)"
