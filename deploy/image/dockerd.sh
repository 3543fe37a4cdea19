#!/usr/bin/env bash
# A Docker engine for the container tests: `start` reuses one that answers (DOCKER_HOST or the
# default socket), else installs Debian's docker.io when dockerd is missing and starts one with
# its own data root, socket and pidfile, keeping all traffic on the machine (no iptables rules,
# no masquerading, ports published on 127.0.0.1 only). The data root persists between runs, so
# the locally built base images stay cached. `stop` stops only a dockerd this script started.
# Both print DOCKER_HOST=... for the caller to export.
set -euo pipefail
root=${VERDICT_DOCKER_ROOT:-$HOME/.cache/verdict-docker}
sock="$root/docker.sock"
pidfile="$root/dockerd.pid"
started_marker="$root/started-by-verdict"

answers() { DOCKER_HOST="$1" timeout 10 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

case "${1:-}" in
  start)
    if [ -n "${DOCKER_HOST:-}" ] && answers "$DOCKER_HOST"; then echo "DOCKER_HOST=$DOCKER_HOST"; exit 0; fi
    if answers "unix://$sock"; then echo "DOCKER_HOST=unix://$sock"; exit 0; fi
    if answers "unix:///var/run/docker.sock"; then echo "DOCKER_HOST=unix:///var/run/docker.sock"; exit 0; fi
    if ! command -v dockerd >/dev/null 2>&1; then
      echo "==> installing Debian's docker.io" >&2
      export DEBIAN_FRONTEND=noninteractive
      apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends docker.io containerd runc >&2 ||
        { apt-get update >&2 && apt-get install -o DPkg::Lock::Timeout=300 -y --no-install-recommends docker.io containerd runc >&2; }
    fi
    mkdir -p "$root/data" "$root/exec"
    echo "==> starting dockerd (data root $root/data)" >&2
    nohup dockerd --data-root "$root/data" --exec-root "$root/exec" --host "unix://$sock" --pidfile "$pidfile" \
      --iptables=false --ip-masq=false --ip=127.0.0.1 --bip "${VERDICT_DOCKER_BIP:-172.31.250.1/24}" \
      --storage-driver overlay2 > "$root/dockerd.log" 2>&1 &
    touch "$started_marker"
    for _ in $(seq 1 60); do
      if answers "unix://$sock"; then echo "DOCKER_HOST=unix://$sock"; exit 0; fi
      sleep 0.5
    done
    echo "dockerd did not start; its log:" >&2
    tail -20 "$root/dockerd.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$started_marker" ] && [ -f "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      rm -f "$started_marker"
    fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
