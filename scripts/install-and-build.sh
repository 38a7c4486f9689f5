#!/usr/bin/env bash
# Shared first half of `npm start` and `npm test`: dependencies, then an incremental build.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${CI:-}" = "true" ] || [ ! -d node_modules ]; then
  echo "==> installing dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
else
  echo "==> installing dependencies (npm install)"
  npm install --no-audit --no-fund --loglevel=error
fi
echo "==> building libs and apps"
npx turbo run build --output-logs=errors-only
