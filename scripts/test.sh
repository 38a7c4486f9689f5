#!/usr/bin/env bash
# `npm test`: install, build, the static checks (import cycles, lint, formatting), the console's
# component tests (Vitest), then every test (unit, integration against real PostgreSQL and NATS,
# end-to-end through the gateway). Extra arguments go to Jest (e.g. --selectProjects unit).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-and-build.sh
bash scripts/check.sh
bash scripts/ensure-browser.sh
bash scripts/ensure-pgbouncer.sh
echo "==> console component tests (Vitest)"
npm run test --workspace @platform/console --silent
echo "==> running tests"
NODE_OPTIONS="--experimental-vm-modules --disable-warning=ExperimentalWarning ${NODE_OPTIONS:-}" exec npx jest "$@"
