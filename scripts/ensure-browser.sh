#!/usr/bin/env bash
# The portal's browser tests drive Debian's chromium through playwright-core (no browser build is
# downloaded): install it when it is missing. Root installs directly; anyone else through sudo.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "==> installing chromium (Debian package) for the browser tests"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version || true
