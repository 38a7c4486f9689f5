#!/usr/bin/env bash
# `npm start`: install, build, set the database up, start the gateway and all thirteen services.
# `npm start -- --with-deps` first starts PostgreSQL, NATS and Redis with docker compose when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-and-build.sh
exec node scripts/platform.js "$@"
