#!/usr/bin/env bash
# Installs the system tools the tests need and a clean machine may lack: tmux, which gives the
# terminal UI's black-box test (apps/gateway/test/ui.test.ts) a real pseudo-terminal; Prometheus
# (the Debian package `prometheus` brings `prometheus` and `promtool`), which scrapes both binaries in
# the metrics tests and checks their exposition; `redis-server` and nginx (`nginx-light`), the
# shared state and the round-robin balancer of the cluster tests; and `git` (git daemon and
# git http-backend come with it) and `fcgiwrap`, which serve the git libraries' repositories over
# git:// and smart HTTP behind nginx in the git library tests; and Python's jinja2 (`python3-jinja2`),
# the oracle the Jinja engine's goldens are checked against (packages/templates/src/jinja2-oracle.test.ts).
# Idempotent: a no-op when everything is present. Installs with apt-get (Debian/Ubuntu), through sudo when not root.
set -euo pipefail

missing=()
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then missing+=(prometheus); fi
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v fcgiwrap >/dev/null 2>&1 || [ -x /usr/sbin/fcgiwrap ] || missing+=(fcgiwrap)
python3 -c 'import jinja2' >/dev/null 2>&1 || missing+=(python3-jinja2)
# chromium: the documentation site's browser test (tests/docs) drives Debian's build with playwright-core.
[ -x /usr/bin/chromium ] || missing+=(chromium)
# Podman (rootful, runc, CNI networks over iptables) and mmdebstrap: the container image test (tests/container/).
{ command -v podman && command -v runc && command -v iptables && command -v mmdebstrap; } >/dev/null 2>&1 || missing+=(podman runc iptables mmdebstrap)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-tools: missing ${missing[*]} and apt-get is not available; install ${missing[*]} with your package manager." >&2
  exit 1
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
  else
    echo "ensure-tools: missing ${missing[*]}; not root and no sudo. Run as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
echo "ensure-tools: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
${as_root[@]+"${as_root[@]}"} apt-get update
${as_root[@]+"${as_root[@]}"} apt-get install -y --no-install-recommends "${missing[@]}"
