#!/usr/bin/env bash
# The README's first command on a fresh machine: clone this repository's HEAD into a temporary
# folder, make Electron's binary download unreachable, run `npm ci && npm run main` exactly as the
# README writes it, and check that the compiled CLI is rebuilt when a source changes.
#
#   scripts/fresh-clone-check.sh            (npm run test:fresh-clone; .ci/run runs it after npm test)
#
# It needs the npm registry (or a filled npm cache: --prefer-offline) and takes minutes, mostly
# compiling better-sqlite3, so it is not part of `npm test`. The clone sits beside a link to the
# data pack's folder (../shared), the layout the kiosk finds on its own. Tests what is committed.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${METRO_SHARED_DIR:-$(cd "$REPO/../shared" 2>/dev/null && pwd || true)}
[ -n "$SHARED" ] && [ -d "$SHARED/metrollm-bench" ] || { echo "fresh-clone-check: no data pack at ../shared/metrollm-bench (set METRO_SHARED_DIR)" >&2; exit 2; }

WORK=$(mktemp -d -t kiosk-fresh-clone-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
ln -s "$SHARED" "$WORK/shared"
git clone --quiet --no-local "$REPO" "$WORK/repo"
cd "$WORK/repo"
echo "fresh-clone-check: $(git log --oneline -1) in $WORK/repo"

# A machine that reaches only the npm registry: Electron's download host does not answer, and no
# earlier download is cached. Nothing tells Electron to skip the download.
unset ELECTRON_SKIP_BINARY_DOWNLOAD ELECTRON_OVERRIDE_DIST_PATH npm_config_electron_skip_binary_download || true
export ELECTRON_MIRROR="http://127.0.0.1:9/"
export electron_config_cache="$WORK/electron-cache"
# The data pack is found through ../shared, not the caller's environment.
unset METRO_DATA_DIR METRO_BENCH_DB || true

step() { echo; echo "fresh-clone-check: \$ $*"; }
step npm ci
npm ci --no-audit --no-fund --prefer-offline
if [ -e node_modules/electron/path.txt ]; then
  echo "fresh-clone-check: Electron's install script ran (node_modules/electron/path.txt exists)" >&2
  exit 1
fi

step npm run main
start=$(date +%s)
npm run main
[ -s var/bench-report.html ] || { echo "fresh-clone-check: npm run main wrote no var/bench-report.html" >&2; exit 1; }
[ -s var/bench.sqlite ] || { echo "fresh-clone-check: npm run main stored no run in var/bench.sqlite" >&2; exit 1; }
echo "fresh-clone-check: npm run main took $(( $(date +%s) - start )) s (build of dist/node included)"

step "touch cli/main.ts && node bin/kiosk.js --help"
sleep 1
touch cli/main.ts
node bin/kiosk.js --help >/dev/null 2>"$WORK/help.err"
grep -q "compiling the CLI into dist/node (cli/main.ts changed)" "$WORK/help.err" || {
  echo "fresh-clone-check: a changed source did not rebuild dist/node:" >&2
  cat "$WORK/help.err" >&2
  exit 1
}
echo
echo "fresh-clone-check: OK"
