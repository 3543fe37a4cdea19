#!/usr/bin/env bash
# Installs what the OSCAL validation tests need into .tools/oscal (idempotent), from Maven
# Central: NIST's liboscal-java (pinned in test/oscal/pom.xml; 3.0.3 = OSCAL 1.1.2), the library
# oscal-cli is built on, with its runtime dependencies (for test/oscal/OscalValidate.java:
# Metaschema constraint validation) and the official OSCAL 1.1.2 JSON schemas its jar ships
# (for the ajv schema validation).
set -euo pipefail
cd "$(dirname "$0")/.."

LIBOSCAL_VERSION=3.0.3
DEST=.tools/oscal
stamp="$DEST/.installed-$LIBOSCAL_VERSION-$(sha1sum test/oscal/pom.xml | cut -c1-12)"
if [ -f "$stamp" ]; then exit 0; fi
command -v mvn >/dev/null || { echo "install-oscal-tools: Maven (mvn) is required" >&2; exit 1; }
command -v java >/dev/null || { echo "install-oscal-tools: Java 17+ is required" >&2; exit 1; }

rm -rf "$DEST" && mkdir -p "$DEST/lib" "$DEST/schemas"
echo "==> fetching gov.nist.secauto.oscal:liboscal-java:$LIBOSCAL_VERSION and its runtime dependencies"
mvn -q -B -f test/oscal/pom.xml dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$(pwd)/$DEST/lib"
# The JDK's jar tool extracts (no unzip needed); keep only the JSON schemas.
(cd "$DEST" && jar xf "lib/liboscal-java-$LIBOSCAL_VERSION.jar" schema/json && mv schema/json/*.json schemas/ && rm -rf schema)
grep -q 'oscal-ar-1.1.2-schema' "$DEST/schemas/oscal-ar_schema.json"
touch "$stamp"
echo "==> OSCAL 1.1.2 schemas and validator classpath in $DEST"
