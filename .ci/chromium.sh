#!/usr/bin/env bash
# Installs Debian's Chromium for the web UI's browser tests (test/ui), which drive it with
# playwright-core at /usr/bin/chromium. Playwright's own browser download is never used: this
# machine reaches only the npm registry and Debian's packages.
set -euo pipefail

log() { echo "[chromium] $*" >&2; }

if [ ! -x /usr/bin/chromium ]; then
  log "installing chromium from Debian"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2
fi
log "$(/usr/bin/chromium --version 2>/dev/null | tail -n 1)"
