# Sourced by kafka.sh and mongo.sh: a local server as a process known by its PID file.
# Needs $pidfile set by the caller.

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# stop_process NAME SECONDS: SIGTERM, wait up to SECONDS for it to exit, then SIGKILL.
stop_process() {
  local name=$1 seconds=$2 pid
  if ! running; then
    rm -f "$pidfile"
    echo "==> $name: not running"
    return 0
  fi
  pid=$(cat "$pidfile")
  kill "$pid"
  for _ in $(seq 1 $((seconds * 4))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$pid" 2>/dev/null; then kill -9 "$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
  echo "==> $name: stopped (pid $pid)"
}
