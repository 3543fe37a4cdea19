#!/usr/bin/env bash
# The container test (a step of scripts/test.sh): starts a Docker engine when none is running
# (deploy/image/dockerd.sh installs Debian's docker.io if needed, and is stopped again only if
# this script started it), installs Docker Compose (scripts/install-compose.sh, cached), builds
# the local base images (cached between runs on one machine), the production image from the
# Dockerfile and the Kafka and FerretDB images (deploy/compose/images.sh, docs/distributed.md's command),
# then runs the jest project "container": the image (test/container/image.test.ts) and the
# compose stack (test/container/compose.test.ts).
# Extra arguments go to jest (e.g. --json --outputFile=...). Prints how long each part took.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
t0=$(date +%s)
# An engine the caller started (scripts/test.sh) is the caller's to stop.
if [ -n "${DOCKER_HOST:-}" ] && timeout 10 docker version >/dev/null 2>&1; then
  :
else
  engine=$(bash deploy/image/dockerd.sh start) || exit 1
  export "${engine?}"
  trap 'bash deploy/image/dockerd.sh stop' EXIT
fi
bash scripts/install-compose.sh || exit 1
t1=$(date +%s)
bash deploy/image/base.sh || exit 1
t2=$(date +%s)
export VERDICT_TEST_IMAGE=${VERDICT_TEST_IMAGE:-verdict:test}
echo "==> building $VERDICT_TEST_IMAGE from the Dockerfile, and the Kafka and FerretDB images, on the local bases"
images=$(VERDICT_LOCAL_BASES=1 VERDICT_IMAGE="$VERDICT_TEST_IMAGE" bash deploy/compose/images.sh) || exit 1
for line in $images; do export "${line?}"; done
t3=$(date +%s)
echo "==> image: $(docker image inspect --format '{{.Size}}' "$VERDICT_TEST_IMAGE" | awk '{printf "%.0f MB", $1/1000000}')"
timeout -k 15 "${JEST_LIMIT:-900}" node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects container --runInBand "$@"
rc=$?
t4=$(date +%s)
echo "==> container step: engine and compose $((t1 - t0)) s, base images $((t2 - t1)) s, images build $((t3 - t2)) s, tests $((t4 - t3)) s, total $((t4 - t0)) s"
exit $rc
