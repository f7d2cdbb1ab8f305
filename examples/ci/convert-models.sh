#!/usr/bin/env bash
# convert-models.sh - convert a folder of ONNX models from cron.
#
#   convert-models.sh MODELS_DIR OUT_DIR [onnx-compile options...]
#
# e.g. in a crontab, every night at 02:00:
#   0 2 * * * /usr/share/doc/onnxc/examples/ci/convert-models.sh /data/models /data/compiled --emit lib
#
# Only new or changed models are compiled: the cache (OUT_DIR/.onnxc-cache)
# restores the rest. Writes OUT_DIR/report.json (per model status, error,
# stage times, outputs, op counts) and OUT_DIR/junit.xml, logs to
# OUT_DIR/convert.log, and exits with onnx-compile's code: 0 every model
# converted, 1 some failed (the others are converted), 2 usage error. A
# run still going when the next starts makes the next one exit at once.
set -uo pipefail
models=${1:?usage: convert-models.sh MODELS_DIR OUT_DIR [options]}
out=${2:?usage: convert-models.sh MODELS_DIR OUT_DIR [options]}
shift 2
compiler=${ONNX_COMPILE:-onnx-compile}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"
exec 9> "$out/.lock"
flock -n 9 || { echo "convert-models: another run holds $out/.lock" >&2; exit 0; }

shopt -s nullglob
inputs=("$models"/*.onnx)
if [ ${#inputs[@]} -eq 0 ]; then
  echo "convert-models: no .onnx files in $models" >&2
  exit 2
fi
{
  echo "== $(date -u +%FT%TZ) converting ${#inputs[@]} models"
  "$compiler" "${inputs[@]}" -o "$out/" -j "$jobs" \
    --report "$out/report.json" --junit "$out/junit.xml" "$@"
  rc=$?
  echo "== exit code $rc"
} >> "$out/convert.log" 2>&1
exit "${rc:-1}"
