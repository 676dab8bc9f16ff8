#!/usr/bin/env bash
# End-to-end tests of the web UI (web/tests): installs what is missing (Debian's chromium,
# a CJK font for the Chinese pages, poppler's pdftotext, zbar's zbarimg, the npm packages of web/tests), builds the binary once and
# runs the suite against a real `rookery serve` on an ephemeral port.
#
#   scripts/e2e.sh                      # run
#   UPDATE_DOCS_SCREENSHOTS=1 scripts/e2e.sh   # also refresh docs/screenshots/
#   E2E_CLUSTER=3 E2E_FILES=e2e.test.js scripts/e2e.sh   # some files, against 3 nodes
#                                       # (scripts/cluster.sh: PostgreSQL, NATS, HAProxy)
#
# Environment: CHROMIUM (default /usr/bin/chromium), ROOKERY_BIN (default target/debug/rookery,
# built here unless set), E2E_SERVER_LOG=1 to stream the server's log.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || need_apt+=(chromium)
fc-list :lang=zh 2>/dev/null | grep -q . || need_apt+=(fonts-wqy-zenhei)
# pdftotext reads back the PDFs the printed documents make, zbarimg their QR codes
# (web/tests/tournaments.test.js).
command -v pdftotext >/dev/null || need_apt+=(poppler-utils)
command -v zbarimg >/dev/null || need_apt+=(zbar-tools)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}"
fi

command -v node >/dev/null || { echo "e2e: node (>= 20) is required" >&2; exit 1; }
(
  cd web/tests
  if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund
  fi
)

if [ -z "${ROOKERY_BIN:-}" ]; then
  cargo build -p rookery
  export ROOKERY_BIN="$PWD/target/debug/rookery"
fi

mkdir -p target/screenshots
cd web/tests
if [ -n "${E2E_FILES:-}" ]; then
  # shellcheck disable=SC2086 # a list of test files
  exec node --test --test-concurrency=1 --test-timeout=600000 $E2E_FILES
fi
exec npm test
