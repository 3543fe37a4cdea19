#!/usr/bin/env bash
# Tools the test suites drive besides Node: Debian's Chromium (the passkey suite signs in through
# its DevTools virtual authenticator, with playwright-core), curl and jq (the docs' walkthrough
# tests run the docs' commands as written). Installed from Debian's packages when missing;
# a second run does nothing. Authlib (PyPI), the OAuth suite's Python client, goes into a venv
# under .tools/authlib; scim2-tester and scim2-cli (PyPI) into .tools/scim2; the pre-commit
# framework (PyPI) into .tools/pre-commit; compliance-trestle (PyPI) into .tools/trestle; moto
# (PyPI) into .tools/moto.
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
# scim2-tester (PyPI) through scim2-cli: the SCIM v2 conformance checks test/e2e/scim-tester.test.ts
# runs against /scim/v2. Pinned, in a venv under .tools/scim2; a second run does nothing.
SCIM2_TESTER_VERSION=0.5.2
SCIM2_CLI_VERSION=0.6.0
if ! .tools/scim2/bin/python -c "
from importlib.metadata import version
assert version('scim2-tester') == '$SCIM2_TESTER_VERSION' and version('scim2-cli') == '$SCIM2_CLI_VERSION'
" 2>/dev/null; then
  echo "==> installing scim2-tester $SCIM2_TESTER_VERSION and scim2-cli $SCIM2_CLI_VERSION (PyPI) into .tools/scim2"
  python3 -m venv .tools/scim2
  .tools/scim2/bin/pip install --quiet --disable-pip-version-check \
    "scim2-tester==$SCIM2_TESTER_VERSION" "scim2-cli==$SCIM2_CLI_VERSION"
fi
# pre-commit (PyPI): test/e2e/cli-push.test.ts runs the hook of .pre-commit-hooks.yaml in a
# repository with it, as a user's `git commit` does. Pinned, in a venv; a second run does nothing.
PRE_COMMIT_VERSION=4.7.0
# The check runs the command itself: a venv made through another path (a worktree's link to
# .tools) has entry points whose interpreter line names that path, and fails once it is gone.
if [ "$(.tools/pre-commit/bin/pre-commit --version 2>/dev/null)" != "pre-commit $PRE_COMMIT_VERSION" ]; then
  echo "==> installing pre-commit $PRE_COMMIT_VERSION (PyPI) into .tools/pre-commit"
  rm -rf .tools/pre-commit
  python3 -m venv .tools/pre-commit
  .tools/pre-commit/bin/pip install --quiet --disable-pip-version-check "pre-commit==$PRE_COMMIT_VERSION"
fi
# compliance-trestle (PyPI): services/compliance/src/domain/oscal.medium.test.ts runs
# `trestle validate` on the OSCAL documents Verdict generates. 3.12.4's models are OSCAL 1.1.3 and
# accept documents of OSCAL 1.1.0 to 1.1.3 (ours say 1.1.2). Pinned, in a venv; VERDICT_TRESTLE_VENV
# puts it elsewhere (the test looks there too). Like pre-commit's, the check runs the command.
TRESTLE_VERSION=3.12.4
TRESTLE_VENV="${VERDICT_TRESTLE_VENV:-.tools/trestle}"
if ! "$TRESTLE_VENV/bin/trestle" version 2>/dev/null | grep -q "^Trestle version v$TRESTLE_VERSION "; then
  echo "==> installing compliance-trestle $TRESTLE_VERSION (PyPI) into $TRESTLE_VENV"
  rm -rf "$TRESTLE_VENV"
  python3 -m venv "$TRESTLE_VENV"
  "$TRESTLE_VENV/bin/pip" install --quiet --disable-pip-version-check "compliance-trestle==$TRESTLE_VERSION"
fi
# moto (PyPI, `moto[server]`): test/e2e/live-verification.test.ts runs its server as a real
# STS-compatible endpoint (GetCallerIdentity with Signature Version 4 checked). Pinned, in a venv;
# VERDICT_MOTO_VENV puts it elsewhere (the test looks there too). Like pre-commit's, the check runs
# the command.
MOTO_VERSION=5.2.5
MOTO_VENV="${VERDICT_MOTO_VENV:-.tools/moto}"
if ! "$MOTO_VENV/bin/moto_server" --help >/dev/null 2>&1 ||
  ! "$MOTO_VENV/bin/python" -c "from importlib.metadata import version; assert version('moto') == '$MOTO_VERSION'" 2>/dev/null; then
  echo "==> installing moto[server] $MOTO_VERSION (PyPI) into $MOTO_VENV"
  rm -rf "$MOTO_VENV"
  python3 -m venv "$MOTO_VENV"
  "$MOTO_VENV/bin/pip" install --quiet --disable-pip-version-check "moto[server]==$MOTO_VERSION"
fi
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
command -v curl >/dev/null 2>&1 || missing+=(curl)
command -v jq >/dev/null 2>&1 || missing+=(jq)
# Signed reports (test/e2e/report-signing.test.ts): openssl verifies the Ed25519 signature,
# poppler renders the PDF's pages (pdftoppm) and reads their text (pdftotext).
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "==> installing ${missing[*]} (Debian packages)"
export DEBIAN_FRONTEND=noninteractive
apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends "${missing[@]}" >/dev/null ||
  { apt-get update >/dev/null && apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends "${missing[@]}" >/dev/null; }
