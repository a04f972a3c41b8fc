#!/usr/bin/env bash
# Times the reference MetroLLM-Bench pipeline for the rule baseline over all six systems, the way
# its REPRODUCING.md (§3) runs it: per system, its mock tool server (FastAPI/uvicorn), its rule
# agent over HTTP, then its scorer (--no-judge, as our bench runs without a judge). Prints the
# whole pipeline's wall time in seconds on the last line ("reference_total_s=…").
#
#   scripts/reference-pipeline.sh REF_DIR [OUT_DIR]
#
# REF_DIR is a checkout of github:continker/metrollm-bench OUTSIDE this repository (nothing of it
# is ever committed here); PYTHON (default python3) must have its dependencies. The full
# procedure, from fetching to a venv, is in docs/PERFORMANCE.md.
set -euo pipefail
REF_DIR=$(cd "${1:?usage: reference-pipeline.sh REF_DIR [OUT_DIR]}" && pwd)
OUT_DIR=${2:-$(mktemp -d -t metrollm-ref-out-XXXXXX)}
PYTHON=${PYTHON:-python3}
PORT=${REFERENCE_PORT:-8190}
SYSTEMS=(marta doha bart taipei cta beijing)
mkdir -p "$OUT_DIR"
cd "$REF_DIR"
# The oracle transcripts were recorded under this seed (CPython's set order of line labels).
export PYTHONHASHSEED=13

server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; server_pid=""; fi
}
trap stop_server EXIT

now() { date +%s.%N; }
start=$(now)
for system in "${SYSTEMS[@]}"; do
  "$PYTHON" -m harness.mock_server --system "$system" --port "$PORT" >"$OUT_DIR/server_$system.log" 2>&1 &
  server_pid=$!
  # Wait for it to listen (uvicorn does once the app has started), up to ≈ 30 s: a TCP connect
  # from bash itself. (Until 2026-12-06 a Python process per poll, whose start-ups took ≈ 0.1 s a
  # system of the CPU the starting server needed.)
  ready=""
  for _ in $(seq 1 1500); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then ready=1; break; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "mock server for $system exited; see $OUT_DIR/server_$system.log" >&2; exit 1; }
    sleep 0.02
  done
  [ -n "$ready" ] || { echo "mock server for $system did not listen on port $PORT within 30 s; see $OUT_DIR/server_$system.log" >&2; exit 1; }
  "$PYTHON" -m harness.rule_agent --cases "cases/${system}_cases.json" --system "$system" \
    --mock-url "http://127.0.0.1:$PORT" --output "$OUT_DIR/rule_$system.json" >"$OUT_DIR/agent_$system.log" 2>&1
  stop_server
  "$PYTHON" -m harness.scorer --system "$system" --results "$OUT_DIR/rule_$system.json" \
    --output "$OUT_DIR/rule_${system}_scored.json" --no-judge >"$OUT_DIR/scorer_$system.log" 2>&1
done
end=$(now)
echo "outputs in $OUT_DIR"
awk -v s="$start" -v e="$end" 'BEGIN { printf "reference_total_s=%.2f\n", e - s }'
