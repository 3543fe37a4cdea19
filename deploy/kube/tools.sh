#!/usr/bin/env bash
# Builds the Kubernetes and chart tooling from the Go module proxy, cached under
# ~/.cache/verdict-kube/bin (a warm run only checks the stamps and returns):
#   kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy, kubectl and
#   metrics-server (Kubernetes 1.33 and the metrics-server release built on the same client
#   libraries, through one wrapper module: k8s.io/kubernetes cannot be `go install`ed),
#   coredns (only the plugins a test cluster needs), kube-network-policies (the
#   NetworkPolicy agent), helm, kubeconform, kube-score,
#   and the offline JSON schemas kubeconform validates against (PyPI kubernetes-validate).
# Usage: deploy/kube/tools.sh [kube|chart|all]   (default all)
set -euo pipefail
KUBE_VERSION="${VERDICT_KUBE_VERSION:-v1.33.13}"
HELM_VERSION="${VERDICT_HELM_VERSION:-v3.22.0}"
KUBECONFORM_VERSION="${VERDICT_KUBECONFORM_VERSION:-v0.7.0}"
KUBE_SCORE_VERSION="${VERDICT_KUBE_SCORE_VERSION:-v1.20.0}"
COREDNS_VERSION="${VERDICT_COREDNS_VERSION:-v1.12.2}"
# The metrics-server release whose go.mod requires the Kubernetes 1.33 libraries (v0.9.0 needs
# v0.36: built on its own it compiled a second Kubernetes, about 20 minutes cold).
METRICS_SERVER_VERSION="${VERDICT_METRICS_SERVER_VERSION:-v0.8.0}"
KUBE_VALIDATE_VERSION="${VERDICT_KUBE_VALIDATE_VERSION:-1.37.0}"
# The Kubernetes SIG's NetworkPolicy agent: version in deploy/kube/network-policies/go.mod, its
# module hash pinned here and in that go.sum (sum.golang.org answers 404 for this module).
NETPOL_MODULE=sigs.k8s.io/kube-network-policies
NETPOL_VERSION=v0.7.0
NETPOL_SUM="h1:UmQnkPKpJ/KJReIpOarEAt3kyZvF44jXp4AWPG9czkY="
CACHE="${VERDICT_KUBE_CACHE:-$HOME/.cache/verdict-kube}"
BIN="$CACHE/bin"
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BIN" "$CACHE/src"
# -buildvcs=false: no VCS stamping (a fresh HOME has no go env file that sets it).
export CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false"
what="${1:-all}"

stamp_ok() { [[ -f "$BIN/.$1.stamp" && "$(cat "$BIN/.$1.stamp")" == "$2" ]]; }
stamp() { echo "$2" > "$BIN/.$1.stamp"; }

build_kube() {
  stamp_ok kube "$KUBE_VERSION metrics-server $METRICS_SERVER_VERSION" && return 0
  local mod="$CACHE/src/kube-$KUBE_VERSION" minor="v0.${KUBE_VERSION#v1.}"
  mkdir -p "$mod"
  (
    cd "$mod"
    cat > go.mod <<GOMOD
module verdict.local/kubebuild

go 1.24

require (
	k8s.io/kubernetes $KUBE_VERSION
	sigs.k8s.io/metrics-server $METRICS_SERVER_VERSION
)
GOMOD
    # Every k8s.io/* staging module the kubernetes go.mod replaces, at the matching v0.x.
    local gomod
    gomod="$(go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')"
    grep -oE '^\s*k8s\.io/[a-z0-9-]+ => \./staging' "$gomod" | awk '{print $1}' | sort -u | while read -r m; do
      echo "replace $m => $m $minor" >> go.mod
    done
    cat > tools.go <<'GOSRC'
//go:build tools

package kubebuild

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-proxy"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubelet"
	_ "k8s.io/kubectl/pkg/cmd"
	_ "sigs.k8s.io/metrics-server/cmd/metrics-server"
)
GOSRC
    go mod tidy -e >/dev/null 2>&1 || true
    go get k8s.io/kubernetes@"$KUBE_VERSION" "sigs.k8s.io/metrics-server@$METRICS_SERVER_VERSION" >/dev/null
    echo "building kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl $KUBE_VERSION, metrics-server $METRICS_SERVER_VERSION" >&2
    # One build for all seven: their packages (metrics-server's Kubernetes libraries are these
    # v0.33 ones) compile in parallel and once.
    # Each stamped with its own version, as their releases are (metrics-server's Makefile sets
    # client-go's gitVersion to its tag).
    go build -trimpath \
      -ldflags "k8s.io/kubernetes/cmd/...=-s -w -X k8s.io/component-base/version.gitVersion=$KUBE_VERSION -X k8s.io/client-go/pkg/version.gitVersion=$KUBE_VERSION" \
      -ldflags "sigs.k8s.io/metrics-server/cmd/metrics-server=-s -w -X k8s.io/client-go/pkg/version.gitVersion=$METRICS_SERVER_VERSION" \
      -o "$BIN/" k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler \
      k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy k8s.io/kubernetes/cmd/kubectl \
      sigs.k8s.io/metrics-server/cmd/metrics-server
  )
  stamp kube "$KUBE_VERSION metrics-server $METRICS_SERVER_VERSION"
}

build_coredns() {
  stamp_ok coredns "$COREDNS_VERSION+bind" && return 0
  local mod="$CACHE/src/coredns-$COREDNS_VERSION"
  mkdir -p "$mod"
  (
    cd "$mod"
    # The Kubernetes client libraries at the version the cluster is built with: the Go build
    # cache then shares their compiled packages with the Kubernetes build.
    local kv="v0.${KUBE_VERSION#v1.}"
    printf 'module verdict.local/coredns\n\ngo 1.24\n\nrequire (\n\tgithub.com/coredns/coredns %s\n\tk8s.io/api %s\n\tk8s.io/apimachinery %s\n\tk8s.io/client-go %s\n)\n' \
      "$COREDNS_VERSION" "$kv" "$kv" "$kv" > go.mod
    cat > main.go <<'GOSRC'
// A CoreDNS with only the plugins a single-node test cluster needs (no forwarding:
// pods resolve cluster names and nothing else).
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
	"github.com/coredns/coredns/coremain"
)

func init() {
	// The order of upstream plugin.cfg.
	dnsserver.Directives = []string{"bind", "ready", "health", "errors", "log", "loadbalance", "cache", "kubernetes"}
}

func main() { coremain.Run() }
GOSRC
    go mod tidy >/dev/null 2>&1
    echo "building coredns $COREDNS_VERSION" >&2
    go build -trimpath -ldflags "-s -w" -o "$BIN/coredns" .
  )
  stamp coredns "$COREDNS_VERSION+bind"
}

build_netpol() {
  # A wrapper module with a committed go.mod and go.sum (deploy/kube/network-policies): the agent's
  # own hash is the pinned line, its dependencies' hashes are those of the agent's go.sum.
  # -mod=readonly: nothing is resolved that go.sum does not pin. GONOSUMDB names only this
  # module (the checksum database does not know it); everything else is still checked as usual.
  local src="$here/network-policies"
  stamp_ok kube-network-policies "$NETPOL_VERSION $(cat "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-16)" && return 0
  (
    cd "$src"
    export GOFLAGS="-mod=readonly -buildvcs=false" GONOSUMDB="$NETPOL_MODULE"
    local sum
    sum=$(go mod download -json "$NETPOL_MODULE@$NETPOL_VERSION" | sed -n 's/^\t"Sum": "\(.*\)",$/\1/p')
    if [ "$sum" != "$NETPOL_SUM" ]; then
      echo "$NETPOL_MODULE@$NETPOL_VERSION has hash '$sum', expected $NETPOL_SUM" >&2
      exit 1
    fi
    grep -qxF "$NETPOL_MODULE $NETPOL_VERSION $NETPOL_SUM" go.sum
    echo "building kube-network-policies $NETPOL_VERSION" >&2
    go build -trimpath -ldflags "-s -w" -o "$BIN/kube-network-policies" "$NETPOL_MODULE/cmd"
  )
  stamp kube-network-policies "$NETPOL_VERSION $(cat "$src/go.mod" "$src/go.sum" | sha256sum | cut -c1-16)"
}

build_go_tool() { # name module@version [extra ldflags]
  local extra=${3:-}
  stamp_ok "$1" "$2 $extra" && return 0
  echo "building $1 ($2)" >&2
  GOBIN="$BIN" go install -trimpath -ldflags "-s -w $extra" "$2"
  stamp "$1" "$2 $extra"
}

fetch_schemas() {
  # kubernetes-validate ships the Kubernetes JSON schemas; kubeconform wants them with no
  # absolute $id and relative $refs, in <kind>-<group>-<version>.json files (its default layout).
  local minor="${KUBE_VERSION#v}"; minor="${minor%.*}"
  local dest="$CACHE/schemas/$minor"
  [[ -f "$dest/.done" ]] && return 0
  echo "fetching kubernetes-validate $KUBE_VALIDATE_VERSION schemas from PyPI" >&2
  local tmp; tmp="$(mktemp -d)"
  python3 -m pip download --quiet --no-deps --dest "$tmp" "kubernetes-validate==$KUBE_VALIDATE_VERSION" >&2
  python3 "$(dirname "$0")/schemas.py" "$tmp"/*.whl "$dest" "$minor"
  rm -rf "$tmp"
  touch "$dest/.done"
}

case "$what" in
  kube)
    # build_kube builds the HPA's metrics-server too (deploy/kube/cluster.sh runs it behind the
    # aggregation layer).
    build_kube; build_coredns
    # The NetworkPolicy agent (deploy/kube/cluster.sh runs it as a DaemonSet): about 2 minutes
    # cold on a loaded 2-core machine.
    build_netpol ;;
  chart)
    # What helm's Makefile stamps in: its version, and the Kubernetes version its client
    # libraries speak (the default of `helm template`'s .Capabilities and of `helm lint`).
    kminor=$(go mod download -json "helm.sh/helm/v3@$HELM_VERSION" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p' | xargs grep -oE 'k8s.io/client-go v0\.[0-9]+' | grep -oE '[0-9]+$')
    build_go_tool helm "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" "-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION \
-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=$kminor \
-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$kminor"
    build_go_tool kubeconform "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
    build_go_tool kube-score "github.com/zegl/kube-score/cmd/kube-score@$KUBE_SCORE_VERSION"
    fetch_schemas ;;
  all) "$0" chart; "$0" kube ;;
  *) echo "usage: $0 [kube|chart|all]" >&2; exit 2 ;;
esac
