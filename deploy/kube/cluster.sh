#!/usr/bin/env bash
# A real single-node Kubernetes 1.33 on this machine, for the chart's tests: upstream binaries
# built from the Go module proxy (deploy/kube/tools.sh, cached), Debian's containerd, runc, etcd
# and CNI plugins. Everything stays on the machine: the node address lives on lo, the API server
# and kubelet listen on it, NodePorts answer on 127.0.0.1 only, and pods may reach each other,
# the node and the API server but nothing beyond (forwarding out of the pod bridge is dropped).
#
#   deploy/kube/cluster.sh up        start (idempotent); prints KUBECONFIG=...
#                                    a cluster whose daemons are gone (a run killed before its
#                                    `down`) is torn down first: `up` never brings back its etcd
#   deploy/kube/cluster.sh load IMG… import Docker images into the node (docker save | ctr import)
#   deploy/kube/cluster.sh down      stop what `up` started and restore the machine
#   deploy/kube/cluster.sh status
#
# State, certificates, logs and PID files: $VERDICT_KUBE_CACHE/cluster (default
# ~/.cache/verdict-kube/cluster); containerd's image store stays there between runs, so images
# are imported once. `down` stops the daemons by their PID files, removes the containers, mounts,
# network namespaces, bridge, iptables rules, cgroups and CNI state they made, and puts back the
# sysctls the kubelet and kube-proxy change (saved by `up`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${VERDICT_KUBE_CACHE:-$HOME/.cache/verdict-kube}
BIN=$CACHE/bin
ST=$CACHE/cluster
RUN=/run/verdict-kube
NODE_IP=${VERDICT_KUBE_NODE_IP:-172.30.99.1}
POD_CIDR=10.244.0.0/24
SVC_CIDR=10.96.0.0/16
API_SVC_IP=10.96.0.1
API_PORT=16443
ETCD_PORT=12379
METRICS_PORT=14443
# The NetworkPolicy agent (kube-network-policies, a DaemonSet on the host network).
NETPOL_IMAGE=verdict-local/kube-network-policies:v0.7.0
NETPOL_QUEUE=98
NETPOL_METRICS=127.0.0.1:19080
BRIDGE=vkube0
# A stand-in for a cloud's metadata address, for pods only (the machine's own route to it is left
# alone): a network namespace behind a veth pair, reached from the pod bridge by a policy route.
META_NS=verdict-kube-meta
META_LINK=vkmeta0
META_IP=169.254.169.254
META_TABLE=199
NODE_NAME=verdict-node
SYSCTLS=(vm.overcommit_memory kernel.panic kernel.panic_on_oops net.ipv4.conf.all.route_localnet net.ipv4.ip_forward)
export PATH="$BIN:$PATH"
KC="$ST/admin.kubeconfig"
CTR=(ctr --address "$RUN/containerd.sock" -n k8s.io)

log() { echo "cluster: $*" >&2; }
docker_host() { # the engine deploy/image/dockerd.sh runs (the images are built there)
  [ -n "${DOCKER_HOST:-}" ] && return 0
  eval "export $(bash "$here/../image/dockerd.sh" start | grep '^DOCKER_HOST=')"
}
# running NAME: the PID file's process is NAME's binary, still running: not a zombie (no exe) left
# by a kill, nor another program that reuses the PID of a daemon gone with a killed run.
running() { local exe; exe=$(readlink "/proc/$2/exe" 2>/dev/null) && [ "$(basename "${exe% (deleted)}")" = "$1" ]; }
alive() { [ -f "$ST/$1.pid" ] && running "$1" "$(cat "$ST/$1.pid")"; }

start() { # name command...
  local name=$1; shift
  if alive "$name"; then return 0; fi
  nohup "$@" >"$ST/log/$name.log" 2>&1 </dev/null &
  echo $! >"$ST/$name.pid"
}

wait_for() { # description seconds command...
  local what=$1 secs=$2; shift 2
  for _ in $(seq 1 $((secs * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  log "$what did not come up in ${secs} s"; return 1
}

packages() {
  local missing=()
  command -v containerd >/dev/null || missing+=(containerd)
  command -v runc >/dev/null || missing+=(runc)
  command -v etcd >/dev/null || missing+=(etcd-server)
  [ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
  command -v conntrack >/dev/null || missing+=(conntrack)
  command -v openssl >/dev/null || missing+=(openssl)
  command -v nft >/dev/null || missing+=(nftables) # `down` removes the NetworkPolicy agent's table
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends "${missing[@]}" >&2 ||
      { apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends "${missing[@]}" >&2; }
  fi
}

front_proxy_certs() {
  # The aggregation layer (metrics.k8s.io from metrics-server): the API server proves who is
  # asking to an extension API server with a client certificate of its own CA.
  local d=$ST/pki
  [ -f "$d/front-proxy-client.crt" ] && return 0
  (
    cd "$d"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -keyout front-proxy-ca.key -out front-proxy-ca.crt -subj "/CN=verdict-front-proxy-ca" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout front-proxy-client.key -out front-proxy-client.csr -subj "/CN=front-proxy-client" 2>/dev/null
    openssl x509 -req -in front-proxy-client.csr -CA front-proxy-ca.crt -CAkey front-proxy-ca.key -CAcreateserial -days 3650 -extfile client.ext -out front-proxy-client.crt 2>/dev/null
  )
}

certs() {
  local d=$ST/pki
  [ -f "$d/admin.crt" ] && { front_proxy_certs; return 0; }
  mkdir -p "$d"
  (
    cd "$d"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -keyout ca.key -out ca.crt -subj "/CN=verdict-kube-ca" 2>/dev/null
    cat >api.ext <<EXT
subjectAltName=IP:$NODE_IP,IP:127.0.0.1,IP:$API_SVC_IP,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost
extendedKeyUsage=serverAuth
EXT
    openssl req -newkey rsa:2048 -nodes -keyout api.key -out api.csr -subj "/CN=kube-apiserver" 2>/dev/null
    openssl x509 -req -in api.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile api.ext -out api.crt 2>/dev/null
    # One client certificate for the admin, the control plane, the kubelet and kube-proxy
    # (system:masters): a throw-away test cluster on one machine.
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=verdict-admin" 2>/dev/null
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -extfile client.ext -out admin.crt 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  )
  front_proxy_certs
  cat >"$KC" <<EOF
apiVersion: v1
kind: Config
clusters:
  - name: verdict
    cluster: {server: "https://$NODE_IP:$API_PORT", certificate-authority: "$d/ca.crt"}
users:
  - name: admin
    user: {client-certificate: "$d/admin.crt", client-key: "$d/admin.key"}
contexts:
  - name: verdict
    context: {cluster: verdict, user: admin, namespace: default}
current-context: verdict
EOF
}

pause_image() {
  # The sandbox image: a tiny static program that waits for a signal, tagged as the upstream one.
  grep -qx 'registry.k8s.io/pause:3.10' <<<"$("${CTR[@]}" images ls -q)" && return 0
  docker_host
  local d; d=$(mktemp -d)
  mkdir -p "$d/src" "$d/root"
  cat >"$d/src/main.go" <<'GO'
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGINT, syscall.SIGTERM)
	<-c
}
GO
  printf 'module pause\n\ngo 1.24\n' >"$d/src/go.mod"
  (cd "$d/src" && CGO_ENABLED=0 go build -trimpath -ldflags '-s -w' -o "$d/root/pause" .)
  tar -C "$d/root" -cf "$d/pause.tar" pause
  docker import --change 'ENTRYPOINT ["/pause"]' "$d/pause.tar" registry.k8s.io/pause:3.10 >/dev/null
  docker save registry.k8s.io/pause:3.10 | "${CTR[@]}" images import - >/dev/null
  rm -rf "$d"
}

save_sysctls() {
  [ -f "$ST/sysctls.saved" ] && return 0
  local s
  for s in "${SYSCTLS[@]}"; do echo "$s=$(sysctl -n "$s")"; done >"$ST/sysctls.saved"
}

network() {
  # (`grep -q <<<"$(cmd)"`, not `cmd | grep -q`: with pipefail, a grep that stops reading at its
  # match may leave cmd a SIGPIPE, and the test reads as false: here `ip addr add` then failed
  # with "Address already assigned" and `up` stopped.)
  grep -q " $NODE_IP/32" <<<"$(ip addr show dev lo)" || ip addr add "$NODE_IP/32" dev lo
  sysctl -qw net.ipv4.ip_forward=1
  mkdir -p "$ST/cni"
  cat >"$ST/cni/10-verdict.conflist" <<EOF
{
  "cniVersion": "0.4.0",
  "name": "verdict-kube",
  "plugins": [
    {"type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
     "ipam": {"type": "host-local", "ranges": [[{"subnet": "$POD_CIDR"}]], "routes": [{"dst": "0.0.0.0/0"}],
              "dataDir": "$ST/cni-ipam"}},
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
EOF
  # Pods reach each other, the node and the API server, never anything beyond this machine.
  iptables -N VERDICT-KUBE-FWD 2>/dev/null || true
  iptables -F VERDICT-KUBE-FWD
  iptables -A VERDICT-KUBE-FWD -i "$BRIDGE" -o "$BRIDGE" -j RETURN
  iptables -A VERDICT-KUBE-FWD -i "$BRIDGE" -o "$META_LINK" -j RETURN
  iptables -A VERDICT-KUBE-FWD -i "$BRIDGE" -j DROP
  iptables -A VERDICT-KUBE-FWD -i "$META_LINK" -o "$BRIDGE" -m conntrack --ctstate RELATED,ESTABLISHED -j RETURN
  iptables -A VERDICT-KUBE-FWD -o "$BRIDGE" -m conntrack --ctstate RELATED,ESTABLISHED -j RETURN
  iptables -C FORWARD -j VERDICT-KUBE-FWD 2>/dev/null || iptables -I FORWARD 1 -j VERDICT-KUBE-FWD
  metadata_standin
}

metadata_standin() {
  # Pods' packets to $META_IP go to the namespace $META_NS (where the cluster test listens), as
  # they would to a cloud's metadata server: forwarded off the pod bridge, so the NetworkPolicy
  # agent judges them. Only packets arriving from the pod bridge take this route.
  ip netns add "$META_NS" 2>/dev/null || true
  ip link show "$META_LINK" >/dev/null 2>&1 || ip link add "$META_LINK" type veth peer name eth0 netns "$META_NS"
  ip link set "$META_LINK" up
  sysctl -qw "net.ipv4.conf.$META_LINK.proxy_arp=1"
  ip -n "$META_NS" link set lo up
  ip -n "$META_NS" link set eth0 up
  ip -n "$META_NS" addr replace "$META_IP/32" dev eth0
  ip -n "$META_NS" route replace "$POD_CIDR" dev eth0
  ip route replace "$META_IP/32" dev "$META_LINK" table "$META_TABLE"
  grep -q "lookup $META_TABLE" <<<"$(ip rule show)" || ip rule add iif "$BRIDGE" to "$META_IP/32" lookup "$META_TABLE" priority 1000
}

containerd_up() {
  mkdir -p "$RUN" "$ST/containerd"
  cat >"$ST/containerd.toml" <<EOF
version = 2
root = "$ST/containerd/root"
state = "$RUN/containerd"
[grpc]
  address = "$RUN/containerd.sock"
[ttrpc]
  address = "$RUN/containerd.sock.ttrpc"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"
  # Essential here: runc cannot lower oom_score_adj on these machines.
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$ST/cni"
EOF
  start containerd containerd --config "$ST/containerd.toml"
  wait_for containerd 30 "${CTR[@]}" version
}

control_plane() {
  mkdir -p "$ST/etcd"
  start etcd etcd --name verdict --data-dir "$ST/etcd" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$((ETCD_PORT + 1))" \
    --initial-cluster "verdict=http://127.0.0.1:$((ETCD_PORT + 1))" --quota-backend-bytes 1073741824
  wait_for etcd 30 curl -sf "http://127.0.0.1:$ETCD_PORT/health"
  local p=$ST/pki
  start kube-apiserver kube-apiserver --bind-address "$NODE_IP" --advertise-address "$NODE_IP" --secure-port "$API_PORT" \
    --etcd-servers "http://127.0.0.1:$ETCD_PORT" --service-cluster-ip-range "$SVC_CIDR" \
    --client-ca-file "$p/ca.crt" --tls-cert-file "$p/api.crt" --tls-private-key-file "$p/api.key" \
    --kubelet-client-certificate "$p/admin.crt" --kubelet-client-key "$p/admin.key" --kubelet-preferred-address-types InternalIP \
    --service-account-key-file "$p/sa.pub" --service-account-signing-key-file "$p/sa.key" \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --authorization-mode Node,RBAC --allow-privileged=false --enable-admission-plugins NodeRestriction \
    --service-node-port-range 30000-32767 --profiling=false \
    --requestheader-client-ca-file "$p/front-proxy-ca.crt" --requestheader-allowed-names front-proxy-client \
    --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group \
    --requestheader-extra-headers-prefix X-Remote-Extra- \
    --proxy-client-cert-file "$p/front-proxy-client.crt" --proxy-client-key-file "$p/front-proxy-client.key" \
    --enable-aggregator-routing=true --v 1
  wait_for kube-apiserver 90 kubectl --kubeconfig "$KC" get --raw /readyz
  start kube-controller-manager kube-controller-manager --kubeconfig "$KC" --authentication-kubeconfig "$KC" \
    --authorization-kubeconfig "$KC" --bind-address 127.0.0.1 --leader-elect=false \
    --service-account-private-key-file "$p/sa.key" --root-ca-file "$p/ca.crt" \
    --cluster-signing-cert-file "$p/ca.crt" --cluster-signing-key-file "$p/ca.key" \
    --service-cluster-ip-range "$SVC_CIDR" --allocate-node-cidrs=false --use-service-account-credentials=false \
    --profiling=false --v 1
  start kube-scheduler kube-scheduler --kubeconfig "$KC" --authentication-kubeconfig "$KC" \
    --authorization-kubeconfig "$KC" --bind-address 127.0.0.1 --leader-elect=false --profiling=false --v 1
}

node_up() {
  mkdir -p "$ST/kubelet"
  cat >"$ST/kubelet.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: cgroupfs
containerRuntimeEndpoint: unix://$RUN/containerd.sock
address: $NODE_IP
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $ST/pki/ca.crt}
authorization: {mode: Webhook}
clusterDomain: cluster.local
clusterDNS: [$NODE_IP]
failSwapOn: false
serializeImagePulls: false
# A shared development machine: never evict for the host's disk or memory use.
evictionHard: {memory.available: "1Mi", nodefs.available: "0%", imagefs.available: "0%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
maxPods: 60
EOF
  start kubelet kubelet --kubeconfig "$KC" --config "$ST/kubelet.yaml" --root-dir "$ST/kubelet" \
    --cert-dir "$ST/kubelet/pki" --hostname-override "$NODE_NAME" --node-ip "$NODE_IP" --v 1
  start kube-proxy kube-proxy --kubeconfig "$KC" --hostname-override "$NODE_NAME" --proxy-mode iptables \
    --cluster-cidr "$POD_CIDR" --nodeport-addresses 127.0.0.1/32 --bind-address "$NODE_IP" \
    --metrics-bind-address 127.0.0.1:10249 --healthz-bind-address 127.0.0.1:10256 \
    --conntrack-max-per-core 0 --conntrack-tcp-timeout-established 0 --conntrack-tcp-timeout-close-wait 0 --v 1
  # Cluster DNS: CoreDNS as a process on the node address, answering cluster names only.
  cat >"$ST/Corefile" <<EOF
.:53 {
    bind $NODE_IP
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig $KC verdict
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    cache 10
    loadbalance
}
EOF
  # CoreDNS's `bind` is a plugin: it is in the list tools.sh compiles in.
  start coredns coredns -conf "$ST/Corefile"
  metrics_server
  wait_for "the node" 120 sh -c "kubectl --kubeconfig '$KC' get node $NODE_NAME -o jsonpath='{.status.conditions[?(@.type==\"Ready\")].status}' | grep -qx True"
}

metrics_server() {
  # metrics-server (the HPA's CPU and memory metrics) as a process on the node address, behind
  # the API server's aggregation layer: a selector-less Service whose endpoint is that address,
  # and the APIService v1beta1.metrics.k8s.io. It reads the kubelet's summary with the admin
  # certificate; the kubelet's serving certificate is self-signed (--kubelet-insecure-tls).
  mkdir -p "$ST/metrics-server"
  start metrics-server metrics-server --kubeconfig "$KC" --authentication-kubeconfig "$KC" --authorization-kubeconfig "$KC" \
    --bind-address "$NODE_IP" --secure-port "$METRICS_PORT" --cert-dir "$ST/metrics-server" \
    --kubelet-insecure-tls --kubelet-preferred-address-types InternalIP --kubelet-port 10250 \
    --metric-resolution 15s --v 1
  kubectl --kubeconfig "$KC" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Service
metadata: {name: metrics-server, namespace: kube-system}
spec:
  ports: [{name: https, port: 443, targetPort: $METRICS_PORT, protocol: TCP}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: metrics-server, namespace: kube-system}
subsets:
  - addresses: [{ip: $NODE_IP}]
    ports: [{name: https, port: $METRICS_PORT, protocol: TCP}]
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata: {name: v1beta1.metrics.k8s.io}
spec:
  service: {name: metrics-server, namespace: kube-system, port: 443}
  group: metrics.k8s.io
  version: v1beta1
  insecureSkipTLSVerify: true
  groupPriorityMinimum: 100
  versionPriority: 100
EOF
}

netpol_image() {
  # The agent's image: its static binary alone (tools.sh builds it), re-imported when it changes.
  local bin=$BIN/kube-network-policies sum
  sum=$(sha256sum "$bin" | cut -c1-64)
  mkdir -p "$ST/loaded"
  if [ "$(cat "$ST/loaded/kube-network-policies" 2>/dev/null)" = "$sum" ] &&
    grep -qx "docker.io/$NETPOL_IMAGE" <<<"$("${CTR[@]}" images ls -q)"; then
    return 0
  fi
  docker_host
  local d; d=$(mktemp -d)
  cp "$bin" "$d/kube-network-policies"
  tar -C "$d" -cf "$d/netpol.tar" kube-network-policies
  docker import --change 'ENTRYPOINT ["/kube-network-policies"]' "$d/netpol.tar" "$NETPOL_IMAGE" >/dev/null
  docker save "$NETPOL_IMAGE" | "${CTR[@]}" images import - >/dev/null
  rm -rf "$d"
  echo "$sum" >"$ST/loaded/kube-network-policies"
}

network_policies() {
  # NetworkPolicies enforced: the Kubernetes SIG's kube-network-policies (its install.yaml's RBAC
  # and DaemonSet, without `privileged`: NET_ADMIN on the host network is what NFQUEUE needs).
  # It judges the first packet of each connection from or to a pod against the policies and
  # drops what they do not allow; nothing else is sent to it.
  # Its own diversion of those packets is an nftables table whose rules end in nftables' `queue`
  # expression, and this kernel has no nft_queue ("netlink receive: no such file or directory";
  # /lib/modules is absent, nothing can be loaded), so the agent logs that it cannot sync its table
  # and answers the queue all the same. The same diversion is made here with iptables' NFQUEUE
  # target (xt_NFQUEUE through nft_compat, which the kernel has), in the agent's order, at the
  # POSTROUTING hook before source NAT: root's sockets on the node pass (the kubelet's probes),
  # established and related packets pass, then every new packet from or to the pod range goes to
  # queue $NETPOL_QUEUE (for pods no policy selects, the agent answers accept). No --queue-bypass:
  # as the agent's default, a packet nobody answers is dropped (fail closed).
  # On a real cluster the API server runs on other machines, so a pod's connection to it takes the
  # forward path and is judged; here it runs on the node, where a pod's packets are delivered
  # locally and never reach POSTROUTING. So new packets from the pod range to the node itself are
  # judged too (at INPUT, after the Service's DNAT), except DNS to the node's CoreDNS process: a
  # process no pod selector can name (the chart allows DNS to kube-dns pods).
  # --netfilter-bug-1766-fix=false: that workaround is for kernels before 6.12 and would also
  # judge DNS to the node's CoreDNS process, which no pod selector names.
  # Its CPU request (100m; it was 20m) is its share of the node's CPU when the
  # node is busy: every new connection's first packet waits for its answer, so when a rolling
  # upgrade starts a dozen pods at once, it must not be the container that waits for CPU.
  netpol_image
  kubectl --kubeconfig "$KC" apply -f - >/dev/null <<MANIFEST
apiVersion: v1
kind: ServiceAccount
metadata: {name: kube-network-policies, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: kube-network-policies}
rules:
  - {apiGroups: [""], resources: [pods, namespaces], verbs: [list, watch]}
  - {apiGroups: [networking.k8s.io], resources: [networkpolicies], verbs: [list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kube-network-policies}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: kube-network-policies}
subjects: [{kind: ServiceAccount, name: kube-network-policies, namespace: kube-system}]
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: kube-network-policies
  namespace: kube-system
  labels: {app: kube-network-policies}
spec:
  selector: {matchLabels: {app: kube-network-policies}}
  template:
    metadata:
      labels: {app: kube-network-policies}
    spec:
      hostNetwork: true
      serviceAccountName: kube-network-policies
      tolerations: [{operator: Exists, effect: NoSchedule}]
      containers:
        - name: kube-network-policies
          image: $NETPOL_IMAGE
          imagePullPolicy: Never
          args: [--hostname-override=$NODE_NAME, --nfqueue-id=$NETPOL_QUEUE, --metrics-bind-address=$NETPOL_METRICS,
                 --netfilter-bug-1766-fix=false, --v=1]
          resources: {requests: {cpu: 100m, memory: 50Mi}}
          securityContext:
            readOnlyRootFilesystem: true
            capabilities: {drop: [ALL], add: [NET_ADMIN]}
MANIFEST
  kubectl --kubeconfig "$KC" -n kube-system rollout status daemonset/kube-network-policies --timeout=120s >&2
  wait_for "the agent's queue" 60 grep -qE "^ *$NETPOL_QUEUE " /proc/net/netfilter/nfnetlink_queue
  iptables -t mangle -N VERDICT-KUBE-NETPOL 2>/dev/null || true
  iptables -t mangle -F VERDICT-KUBE-NETPOL
  iptables -t mangle -A VERDICT-KUBE-NETPOL -m owner --uid-owner 0 -j RETURN
  iptables -t mangle -A VERDICT-KUBE-NETPOL -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN
  iptables -t mangle -A VERDICT-KUBE-NETPOL -s "$POD_CIDR" -j NFQUEUE --queue-num "$NETPOL_QUEUE"
  iptables -t mangle -A VERDICT-KUBE-NETPOL -d "$POD_CIDR" -j NFQUEUE --queue-num "$NETPOL_QUEUE"
  iptables -t mangle -C POSTROUTING -j VERDICT-KUBE-NETPOL 2>/dev/null || iptables -t mangle -A POSTROUTING -j VERDICT-KUBE-NETPOL
  iptables -t mangle -N VERDICT-KUBE-NETPOL-IN 2>/dev/null || true
  iptables -t mangle -F VERDICT-KUBE-NETPOL-IN
  iptables -t mangle -A VERDICT-KUBE-NETPOL-IN -m conntrack --ctstate ESTABLISHED,RELATED -j RETURN
  iptables -t mangle -A VERDICT-KUBE-NETPOL-IN -p udp --dport 53 -j RETURN
  iptables -t mangle -A VERDICT-KUBE-NETPOL-IN -p tcp --dport 53 -j RETURN
  iptables -t mangle -A VERDICT-KUBE-NETPOL-IN -s "$POD_CIDR" -j NFQUEUE --queue-num "$NETPOL_QUEUE"
  iptables -t mangle -C INPUT -j VERDICT-KUBE-NETPOL-IN 2>/dev/null || iptables -t mangle -A INPUT -j VERDICT-KUBE-NETPOL-IN
}

up() {
  local t0=$SECONDS
  # What a cluster left when its run was killed before `down` (a CI job or a session stopped
  # mid-run): its etcd would bring back that run's namespaces, releases and pods (all restarted
  # at once, beside whatever runs next) and `helm install` would find its release names taken.
  # Nothing of a cluster that is still running is touched (`up` stays idempotent).
  if ! alive etcd && { [ -d "$ST/etcd" ] || compgen -G "$ST/*.pid" >/dev/null; }; then
    log "an earlier cluster's state is left (its daemons are gone): tearing it down first"
    down
  fi
  mkdir -p "$ST/log"
  packages
  bash "$here/tools.sh" kube
  certs
  save_sysctls
  network
  containerd_up
  pause_image
  control_plane
  node_up
  network_policies
  log "node $NODE_NAME Ready in $((SECONDS - t0)) s (KUBECONFIG=$KC)"
  echo "KUBECONFIG=$KC"
}

load() {
  # Each image once: the image id is remembered, containerd's store persists between runs.
  local img id
  docker_host
  mkdir -p "$ST/loaded"
  for img in "$@"; do
    id=$(docker image inspect --format '{{.Id}}' "$img")
    if [ "$(cat "$ST/loaded/${img//[\/:]/_}" 2>/dev/null)" = "$id" ] && grep -qx "docker.io/library/$img\|docker.io/$img\|$img" <<<"$("${CTR[@]}" images ls -q)"; then
      continue
    fi
    log "importing $img"
    docker save "$img" | "${CTR[@]}" images import - >/dev/null
    echo "$id" >"$ST/loaded/${img//[\/:]/_}"
  done
}

stop_pid() {
  local name=$1 pid
  [ -f "$ST/$name.pid" ] || return 0
  pid=$(cat "$ST/$name.pid")
  if running "$name" "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do running "$name" "$pid" || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$ST/$name.pid"
}

down() {
  [ -d "$ST" ] || return 0
  stop_pid metrics-server
  stop_pid coredns
  stop_pid kubelet
  # The containers the kubelet left: stop and remove them (and their sandboxes) through containerd.
  if alive containerd; then
    local c
    for c in $("${CTR[@]}" tasks ls -q 2>/dev/null); do "${CTR[@]}" tasks kill -s KILL "$c" >/dev/null 2>&1 || true; done
    sleep 1
    for c in $("${CTR[@]}" tasks ls -q 2>/dev/null); do "${CTR[@]}" tasks delete -f "$c" >/dev/null 2>&1 || true; done
    for c in $("${CTR[@]}" containers ls -q 2>/dev/null); do "${CTR[@]}" containers delete "$c" >/dev/null 2>&1 || true; done
  fi
  # What containerd could not stop, being gone (a run killed before `down`): the pods' processes,
  # still in the kubelet's cgroups (a NetworkPolicy agent among them, still bound to its queue, so
  # that the next cluster's could not start), and the shims that held them, this cluster's by
  # their containerd address.
  local p
  for p in $(find /sys/fs/cgroup/*/kubepods -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u); do
    kill -KILL "$p" 2>/dev/null || true
  done
  for p in $(ps -eo pid=,args= | awk -v a="-address $RUN/containerd.sock" '$2 ~ /containerd-shim/ && index($0, a) {print $1}'); do
    kill -KILL "$p" 2>/dev/null || true
  done
  stop_pid kube-proxy
  [ -x "$BIN/kube-proxy" ] && "$BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true
  stop_pid kube-scheduler
  stop_pid kube-controller-manager
  stop_pid kube-apiserver
  stop_pid etcd
  stop_pid containerd
  # Mounts (pod volumes, sandbox shm, rootfs) and network namespaces made for the pods.
  local m
  for m in $(awk -v a="$ST/" -v b="$RUN/" 'index($2, a) == 1 || index($2, b) == 1 {print $2}' /proc/mounts | sort -r); do
    umount -l "$m" 2>/dev/null || true
  done
  for m in /var/run/netns/cni-*; do
    [ -e "$m" ] || continue
    umount "$m" 2>/dev/null || true
    rm -f "$m"
  done
  ip link del "$BRIDGE" 2>/dev/null || true
  # The metadata stand-in.
  while grep -q "lookup $META_TABLE" <<<"$(ip rule show)"; do ip rule del lookup "$META_TABLE" 2>/dev/null || break; done
  ip route flush table "$META_TABLE" 2>/dev/null || true
  ip link del "$META_LINK" 2>/dev/null || true
  ip netns del "$META_NS" 2>/dev/null || true
  # The NetworkPolicy diversion, and the agent's nftables table if a kernel let it make one (it
  # is killed with the pods, before its own clean-up).
  if iptables -t mangle -C POSTROUTING -j VERDICT-KUBE-NETPOL 2>/dev/null; then iptables -t mangle -D POSTROUTING -j VERDICT-KUBE-NETPOL; fi
  if iptables -t mangle -C INPUT -j VERDICT-KUBE-NETPOL-IN 2>/dev/null; then iptables -t mangle -D INPUT -j VERDICT-KUBE-NETPOL-IN; fi
  iptables -t mangle -F VERDICT-KUBE-NETPOL 2>/dev/null || true
  iptables -t mangle -X VERDICT-KUBE-NETPOL 2>/dev/null || true
  iptables -t mangle -F VERDICT-KUBE-NETPOL-IN 2>/dev/null || true
  iptables -t mangle -X VERDICT-KUBE-NETPOL-IN 2>/dev/null || true
  nft delete table inet kube-network-policies 2>/dev/null || true
  if iptables -C FORWARD -j VERDICT-KUBE-FWD 2>/dev/null; then iptables -D FORWARD -j VERDICT-KUBE-FWD; fi
  iptables -F VERDICT-KUBE-FWD 2>/dev/null || true
  iptables -X VERDICT-KUBE-FWD 2>/dev/null || true
  # What the kubelet and kube-proxy leave in iptables (KUBE-FIREWALL hooked into INPUT/OUTPUT,
  # canary and masquerade chains, IPv4 and IPv6): the jumps to them, then the chains.
  local ipt table rule
  for ipt in iptables ip6tables; do
    for table in filter nat mangle; do
      "$ipt" -t "$table" -S 2>/dev/null | grep -E '^-A [A-Z]+ .*-j KUBE-' | grep -vE '^-A KUBE-' | sed 's/^-A/-D/' |
        while read -r rule; do eval "$ipt" -t "$table" "$rule" 2>/dev/null || true; done || true
      for chain in $("$ipt" -t "$table" -S 2>/dev/null | awk '/^-N KUBE-/ {print $2}'); do "$ipt" -t "$table" -F "$chain" 2>/dev/null || true; done
      for chain in $("$ipt" -t "$table" -S 2>/dev/null | awk '/^-N KUBE-/ {print $2}'); do "$ipt" -t "$table" -X "$chain" 2>/dev/null || true; done
    done
  done
  # The CNI portmap and bridge plugins' chains, if any are left.
  local chain
  for chain in $(iptables -t nat -S 2>/dev/null | awk '/^-N CNI-/ {print $2}'); do
    iptables -t nat -F "$chain" 2>/dev/null || true
  done
  for chain in $(iptables -t nat -S 2>/dev/null | awk '/^-N CNI-/ {print $2}'); do
    iptables -t nat -S 2>/dev/null | grep -- "-j $chain" | sed 's/^-A/-D/' | while read -r rule; do eval iptables -t nat "$rule" 2>/dev/null || true; done || true
    iptables -t nat -X "$chain" 2>/dev/null || true
  done
  # The kubelet's cgroups (cgroupfs driver), deepest first.
  local cg
  for cg in /sys/fs/cgroup/*/kubepods; do
    [ -d "$cg" ] && find "$cg" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
  rm -rf "$ST/cni-ipam" "$RUN" "$ST/kubelet" "$ST/etcd"
  if [ -f "$ST/sysctls.saved" ]; then
    while IFS='=' read -r k v; do sysctl -qw "$k=$v" || true; done <"$ST/sysctls.saved"
    rm -f "$ST/sysctls.saved"
  fi
  ip addr del "$NODE_IP/32" dev lo 2>/dev/null || true
  log "stopped and cleaned up"
}

status() {
  local rc=0 n
  for n in containerd etcd kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy coredns metrics-server; do
    if alive "$n"; then echo "$n: running (pid $(cat "$ST/$n.pid"))"; else echo "$n: not running"; rc=1; fi
  done
  if alive kube-apiserver; then
    n=$(kubectl --kubeconfig "$KC" -n kube-system get daemonset kube-network-policies -o jsonpath='{.status.numberReady}' 2>/dev/null || true)
    echo "kube-network-policies: ${n:-0} ready"
  fi
  return $rc
}

case "${1:-}" in
  up) up ;;
  load) shift; load "$@" ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|load IMAGE...|down|status" >&2; exit 2 ;;
esac
