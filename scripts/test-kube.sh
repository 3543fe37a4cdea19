#!/usr/bin/env bash
# The Helm chart's test (a step of scripts/test.sh): builds the tooling (deploy/kube/tools.sh:
# helm, kubeconform, kube-score, the offline schemas, Kubernetes 1.33 and CoreDNS, all from the
# Go module proxy and PyPI, cached in ~/.cache/verdict-kube), runs the static checks (jest project
# "chart"), builds the images (deploy/kube/images.sh), starts a real single-node cluster
# (deploy/kube/cluster.sh up), loads the images, runs the cluster test (jest project "kube") and
# tears the cluster down again, restoring the machine. `--results DIR` writes jest's JSON reports
# to DIR/chart.json and DIR/kube.json (scripts/test.sh); other arguments go to both jest runs.
# Prints how long each part took. Run it after scripts/test-container.sh, which builds verdict:test
# (deploy/kube/images.sh builds it only when the engine has none). A Docker engine that was already
# running (scripts/test.sh's, which runs this step beside others) is left running.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
jest() { timeout -k 15 "${JEST_LIMIT:-1500}" node --experimental-vm-modules node_modules/jest/bin/jest.js "$@"; }
report_chart=() report_kube=()
if [ "${1:-}" = --results ]; then
  report_chart=(--json "--outputFile=$2/chart.json") report_kube=(--json "--outputFile=$2/kube.json")
  shift 2
fi
t0=$(date +%s)
engine_was_up=0
if [ -n "${DOCKER_HOST:-}" ] && timeout 10 docker version >/dev/null 2>&1; then engine_was_up=1; fi
bash deploy/kube/tools.sh chart || exit 1
t1=$(date +%s)
jest --selectProjects chart --runInBand "${report_chart[@]}" "$@"
chart_rc=$?
t2=$(date +%s)
bash deploy/kube/tools.sh kube || exit 1
t3=$(date +%s)
images=$(bash deploy/kube/images.sh) || exit 1
engine=$(grep '^DOCKER_HOST=' <<<"$images")
export "${engine?}"
# deploy/infra/images.sh's images (printed with their content-hash tags), loaded under the plain
# version tags charts/verdict/values.yaml names (verdict-infra/kafka:4.3.1).
kafka_image=$(sed -n 's/^VERDICT_KAFKA_IMAGE=//p' <<<"$images")
ferretdb_image=$(sed -n 's/^VERDICT_FERRETDB_IMAGE=//p' <<<"$images")
t4=$(date +%s)
trap 'bash deploy/kube/cluster.sh down; [ $engine_was_up = 1 ] || bash deploy/image/dockerd.sh stop >/dev/null' EXIT
kube=$(bash deploy/kube/cluster.sh up | grep '^KUBECONFIG=') || exit 1
export "${kube?}"
# The upgrade test rolls every Deployment to another tag of the same image.
docker tag verdict:test verdict:upgrade
bash deploy/kube/cluster.sh load verdict:test verdict:upgrade "${kafka_image%-*}" "${ferretdb_image%-*}" || exit 1
t5=$(date +%s)
jest --selectProjects kube --runInBand "${report_kube[@]}" "$@"
kube_rc=$?
t6=$(date +%s)
echo "==> kube step: tools $((t1 - t0 + t3 - t2)) s, static chart checks $((t2 - t1)) s, images $((t4 - t3)) s, cluster up + image load $((t5 - t4)) s, cluster test $((t6 - t5)) s, total $((t6 - t0)) s (tear-down follows)"
[ $chart_rc -eq 0 ] && [ $kube_rc -eq 0 ]
