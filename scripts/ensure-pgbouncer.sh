#!/usr/bin/env bash
# The PgBouncer test (apps/run/test/pgbouncer.int-spec.ts) starts a private PgBouncer from
# Debian's package: install it when it is missing. Root installs directly; anyone else through sudo.
set -euo pipefail
if [ -x /usr/sbin/pgbouncer ]; then exit 0; fi
echo "==> installing pgbouncer (Debian package) for the connection pooler test"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pgbouncer >/dev/null
# The package's own service is not wanted: the test runs PgBouncer with its own configuration.
$SUDO service pgbouncer stop >/dev/null 2>&1 || true
/usr/sbin/pgbouncer --version | head -1
