#!/usr/bin/env bash
# setup.sh - install the benchmarks' reference engine, onnxruntime-node (pinned in package-lock.json), into bench/node_modules.
#   usage: bench/setup.sh          (does nothing when the pinned version is already there)
# The npm package bundles libonnxruntime for linux-x64; its postinstall step would only fetch
# the optional CUDA provider from outside the npm registry, so it is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
want=$(node -p "require('./package-lock.json').packages['node_modules/onnxruntime-node'].version")
have=$(node -p "try { require('onnxruntime-node/package.json').version } catch (e) { '' }" 2>/dev/null || true)
if [ "$have" = "$want" ] && node -e "require('onnxruntime-node')" 2>/dev/null; then
  exit 0
fi
command -v npm >/dev/null || { echo "error: npm not found (apt-get install nodejs npm)" >&2; exit 1; }
echo "installing onnxruntime-node $want into $here/node_modules"
ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --loglevel=error
node -e "const ort = require('onnxruntime-node'); console.log('onnxruntime-node', ort.env.versions.node)"
