#!/usr/bin/env bash
# `npm start`: install, build, set the database up, start the gateway and all thirteen services.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-and-build.sh
exec node scripts/platform.js
