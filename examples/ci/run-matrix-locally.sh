#!/usr/bin/env bash
# run-matrix-locally.sh - run the CI files' shard matrix on one machine.
#
#   run-matrix-locally.sh [-n SHARDS] MODELS_DIR OUT_DIR [onnx-compile options...]
#
# What github-actions.yml and gitlab-ci.yml run as four jobs runs here as
# SHARDS (default 4) onnx-compile processes at once, each converting shard
# I/SHARDS of MODELS_DIR/*.onnx (by sorted path, as in CI) into OUT_DIR/out/
# with -j JOBS (default: the cores over the shards, at least 1). All shards
# share one cache, OUT_DIR/.onnxc-cache (in CI each job keeps its own), so
# a second run, with any SHARDS, restores every unchanged model. Each shard
# writes report-I.json, junit-I.xml and log-I.txt in OUT_DIR/shards/;
# merge-reports.py merges them into OUT_DIR/report.json and
# OUT_DIR/junit.xml (python3). Options after OUT_DIR go to every shard (the
# CI files pass --emit lib). $ONNX_COMPILE names the compiler (default:
# onnx-compile on PATH).
#
# Exit code: the highest of the shards' (0 every model converted, 1 some
# failed, 2 usage error, 3 an internal error in some model), 2 for a usage
# error of this script, 4 when the reports cannot be merged.
set -uo pipefail
usage() {
  echo "usage: run-matrix-locally.sh [-n SHARDS] MODELS_DIR OUT_DIR [onnx-compile options...]" >&2
  exit 2
}
shards=4
if [ "${1:-}" = -n ]; then
  shards=${2:-}
  shift 2 || usage
fi
[[ $shards =~ ^[1-9][0-9]*$ ]] || usage
[ $# -ge 2 ] || usage
models=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
compiler=${ONNX_COMPILE:-onnx-compile}
jobs=${JOBS:-$(($(nproc) / shards))}
[ "$jobs" -ge 1 ] || jobs=1

shopt -s nullglob
inputs=("$models"/*.onnx)
if [ ${#inputs[@]} -eq 0 ]; then
  echo "run-matrix-locally: no .onnx files in $models" >&2
  exit 2
fi
mkdir -p "$out/shards"
rm -f "$out"/shards/report-*.json "$out"/shards/junit-*.xml "$out"/shards/log-*.txt

# The CI jobs' command, one process per shard.
pids=()
for ((i = 1; i <= shards; i++)); do
  "$compiler" "${inputs[@]}" -o "$out/out/" -j "$jobs" \
    --shard "$i/$shards" --cache-dir "$out/.onnxc-cache" \
    --report "$out/shards/report-$i.json" --junit "$out/shards/junit-$i.xml" \
    "$@" > "$out/shards/log-$i.txt" 2>&1 &
  pids+=($!)
done
rc=0
for ((i = 1; i <= shards; i++)); do
  wait "${pids[i - 1]}"
  shard_rc=$?
  echo "shard $i/$shards: exit code $shard_rc (log: $out/shards/log-$i.txt)"
  [ "$shard_rc" -le "$rc" ] || rc=$shard_rc
done

# A usage error leaves no report to merge.
[ "$rc" -ne 2 ] || exit 2
/usr/bin/env python3 "$here/merge-reports.py" "$out/shards" \
  --json "$out/report.json" --junit "$out/junit.xml" || exit 4
exit "$rc"
