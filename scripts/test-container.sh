#!/usr/bin/env bash
# The container test (a step of scripts/test.sh): starts a Docker engine when none is running
# (deploy/image/dockerd.sh installs Debian's docker.io if needed, and is stopped again only if
# this script started it), builds the local base images (cached between runs on one machine)
# and the production image from the Dockerfile, then runs the jest project "container".
# Extra arguments go to jest (e.g. --json --outputFile=...). Prints how long each part took.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
t0=$(date +%s)
engine=$(bash deploy/image/dockerd.sh start) || exit 1
export "${engine?}"
trap 'bash deploy/image/dockerd.sh stop' EXIT
t1=$(date +%s)
bash deploy/image/base.sh || exit 1
t2=$(date +%s)
export VERDICT_TEST_IMAGE=${VERDICT_TEST_IMAGE:-verdict:test}
echo "==> building $VERDICT_TEST_IMAGE from the Dockerfile on the local bases"
docker build -q --network host \
  --build-arg BUILD_BASE=verdict-local/node:24-bookworm --build-arg RUNTIME_BASE=verdict-local/node:24-bookworm-slim \
  --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  -t "$VERDICT_TEST_IMAGE" . > /dev/null || exit 1
t3=$(date +%s)
echo "==> image: $(docker image inspect --format '{{.Size}}' "$VERDICT_TEST_IMAGE" | awk '{printf "%.0f MB", $1/1000000}')"
timeout -k 15 "${JEST_LIMIT:-900}" node --experimental-vm-modules node_modules/jest/bin/jest.js --selectProjects container --runInBand "$@"
rc=$?
t4=$(date +%s)
echo "==> container step: engine $((t1 - t0)) s, base images $((t2 - t1)) s, image build $((t3 - t2)) s, tests $((t4 - t3)) s, total $((t4 - t0)) s"
exit $rc
