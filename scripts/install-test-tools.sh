#!/usr/bin/env bash
# Tools the test suites drive besides Node: Debian's Chromium (the passkey suite signs in through
# its DevTools virtual authenticator, with playwright-core), curl and jq (the docs' walkthrough
# tests run the docs' commands as written). Installed from Debian's packages when missing;
# a second run does nothing. Authlib (PyPI), the OAuth suite's Python client, goes into a venv
# under .tools/authlib.
set -euo pipefail
cd "$(dirname "$0")/.."
AUTHLIB_VERSION=1.9.6
REQUESTS_VERSION=2.34.2
if ! .tools/authlib/bin/python -c "import authlib, requests; assert authlib.__version__ == '$AUTHLIB_VERSION'" 2>/dev/null; then
  echo "==> installing Authlib $AUTHLIB_VERSION (PyPI) into .tools/authlib"
  python3 -m venv .tools/authlib
  .tools/authlib/bin/pip install --quiet --disable-pip-version-check \
    "Authlib==$AUTHLIB_VERSION" "requests==$REQUESTS_VERSION"
fi
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "==> installing ${missing[*]} (Debian packages)"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
  { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
