#!/usr/bin/env bash
# The static checks `npm test` runs before any test (also `npm run check`): no import cycle in
# apps/, libs/ or clients/ (type-only imports count), feature folders of an app that depend one way and keep
# their repositories to themselves (scripts/check-feature-deps.js), no database function defined in
# a migration (each lives in its feature's sql/ folder: scripts/check-functions.js), ESLint with
# type-aware rules and zero warnings, and Prettier's formatting.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "==> checking for import cycles"
npx dpdm --no-warning --no-tree --progress false --exit-code circular:1 'apps/*/src/**/*.ts' 'apps/*/src/**/*.tsx' 'libs/*/src/**/*.ts' 'apps/*/test/**/*.ts' 'libs/*/test/**/*.ts' 'clients/*/src/**/*.ts' 'clients/*/test/**/*.ts'
echo "==> checking that feature folders depend one way"
node scripts/check-feature-deps.js
echo "==> checking that database functions live in their feature's sql/ folder, not in migrations"
node scripts/check-functions.js
echo "==> linting"
npx eslint . --max-warnings 0
echo "==> checking formatting"
npx prettier --check --log-level warn '**/*.{ts,tsx,js,mjs,css}'
