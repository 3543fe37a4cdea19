#!/usr/bin/env bash
# Tools the test suites drive besides Node: Debian's Chromium (the passkey suite signs in through
# its DevTools virtual authenticator, with playwright-core), curl and jq (the README walkthrough
# tests run the README's commands as written). Installed from Debian's packages when missing;
# a second run does nothing.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "==> installing ${missing[*]} (Debian packages)"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
  { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
