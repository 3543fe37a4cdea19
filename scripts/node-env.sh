# Sourced by the scripts (not run): puts the Node.js that scripts/install.sh provides first on
# PATH. A machine whose own Node is older than 24 gets Node 24 in .tools/node (from the npm
# registry); a fresh shell would still find the old one first, so every script sources this.
_verdict_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -x "$_verdict_root/.tools/node/bin/node" ]; then
  case ":$PATH:" in
    *":$_verdict_root/.tools/node/bin:"*) ;;
    *) export PATH="$_verdict_root/.tools/node/bin:$PATH" ;;
  esac
fi
unset _verdict_root
