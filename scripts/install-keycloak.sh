#!/usr/bin/env bash
# Keycloak (the SSO suite's real OIDC provider and SAML identity provider): the server distribution
# keycloak-quarkus-dist from Maven Central, unpacked once into a cache under ~/.cache and run with
# the machine's Java. Prints the unpacked directory. A second run does nothing but print it.
set -euo pipefail
KEYCLOAK_VERSION=26.7.3
cache="${VERDICT_KEYCLOAK_CACHE:-$HOME/.cache/verdict-keycloak}"
dir="$cache/keycloak-$KEYCLOAK_VERSION"
if [ ! -x "$dir/bin/kc.sh" ]; then
  echo "==> installing Keycloak $KEYCLOAK_VERSION (Maven Central) into $cache" >&2
  mkdir -p "$cache"
  # The local repository named explicitly: Maven takes its default from Java's user.home (the
  # passwd entry), not $HOME, so with another HOME the tarball was elsewhere.
  repo="$HOME/.m2/repository"
  mvn -q dependency:get -Dmaven.repo.local="$repo" -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:tar.gz" \
    -Dtransitive=false >&2
  tarball="$repo/org/keycloak/keycloak-quarkus-dist/$KEYCLOAK_VERSION/keycloak-quarkus-dist-$KEYCLOAK_VERSION.tar.gz"
  tmp=$(mktemp -d "$cache/unpack.XXXXXX")
  tar -xzf "$tarball" -C "$tmp"
  mv "$tmp/keycloak-$KEYCLOAK_VERSION" "$dir"
  rmdir "$tmp"
fi
echo "$dir"
