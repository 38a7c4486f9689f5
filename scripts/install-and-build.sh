#!/usr/bin/env bash
# Shared first half of `npm start` and `npm test`: dependencies, then an incremental build.
set -euo pipefail
cd "$(dirname "$0")/.."
# `npm install`, not `npm ci`: the lock file can only list the platform-specific optional
# binaries (turbo, the resolver) that the registry it was written against serves, and `npm ci`
# refuses a lock without all of them. `npm install` honours the lock and tolerates that gap.
echo "==> installing dependencies"
npm install --no-audit --no-fund --loglevel=error
echo "==> building libs and apps"
npx turbo run build --output-logs=errors-only
