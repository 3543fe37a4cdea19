#!/usr/bin/env bash
# Installs what the OSCAL validation tests need into .tools/oscal (idempotent):
# NIST's liboscal-java (Maven Central, pinned) - the library oscal-cli is built on - whose jar
# ships the official OSCAL 1.1.2 JSON schemas, plus its runtime dependencies for the Java
# validator (test/oscal/OscalValidate.java: schema + Metaschema constraint validation).
set -euo pipefail
cd "$(dirname "$0")/.."

LIBOSCAL_VERSION=3.0.3 # OSCAL 1.1.2
DEST=.tools/oscal
if [ -f "$DEST/.installed-$LIBOSCAL_VERSION" ]; then exit 0; fi
command -v mvn >/dev/null || { echo "install-oscal-tools: Maven (mvn) is required" >&2; exit 1; }
command -v java >/dev/null || { echo "install-oscal-tools: Java 17+ is required" >&2; exit 1; }

rm -rf "$DEST" && mkdir -p "$DEST/lib" "$DEST/schemas"
echo "==> fetching gov.nist.secauto.oscal:liboscal-java:$LIBOSCAL_VERSION and its dependencies"
mvn -q -B dependency:get -Dartifact="gov.nist.secauto.oscal:liboscal-java:$LIBOSCAL_VERSION" >/dev/null
mvn -q -B dependency:copy -Dartifact="gov.nist.secauto.oscal:liboscal-java:$LIBOSCAL_VERSION" -DoutputDirectory="$DEST/lib" >/dev/null
jar="$DEST/lib/liboscal-java-$LIBOSCAL_VERSION.jar"
(cd "$DEST/schemas" && unzip -q -o -j "../lib/$(basename "$jar")" 'schema/json/*.json')
grep -q 'oscal-ar-1.1.2-schema' "$DEST/schemas/oscal-ar_schema.json"
touch "$DEST/.installed-$LIBOSCAL_VERSION"
echo "==> OSCAL 1.1.2 schemas in $DEST/schemas"
