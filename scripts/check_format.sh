#!/usr/bin/env bash
# check_format.sh - clang-format-19 over the tree's C and C++ sources.
#
#   check_format.sh              check every tracked .c/.h/.cpp file
#   check_format.sh REV          check only the files changed since REV
#                                (committed or not), e.g. origin/main
#   check_format.sh --fix [REV]  rewrite them in place instead
#
# The style is the repository's .clang-format (LLVM, TableGen off). Before
# checking, the script makes sure that clang-format flags a misformatted
# file under that configuration, so a broken setup cannot pass silently.
# Exit status: 0 when every file is formatted, 1 when one is not, 2 when
# clang-format-19 is missing (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

fix=0
if [ "${1:-}" = "--fix" ]; then
  fix=1
  shift
fi
base="${1:-}"

clangFormat=$(command -v clang-format-19 || true)
if [ -z "$clangFormat" ]; then
  echo "check_format: clang-format-19 not found; run scripts/setup.sh" >&2
  exit 2
fi

patterns=('*.c' '*.h' '*.cpp')
if [ -n "$base" ]; then
  mapfile -t files < <(git diff --name-only --diff-filter=d "$base" -- \
    "${patterns[@]}")
else
  mapfile -t files < <(git ls-files -- "${patterns[@]}")
fi

if [ "$fix" = 1 ]; then
  [ ${#files[@]} -eq 0 ] || "$clangFormat" -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} file(s)"
  exit 0
fi

# Self-check: the configuration must reject an obviously misformatted file.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp .clang-format "$tmp/"
printf 'int  f( int x ){return x;}\n' > "$tmp/sample.c"
if "$clangFormat" --dry-run -Werror "$tmp/sample.c" 2>/dev/null; then
  echo "check_format: clang-format accepted a misformatted sample" >&2
  exit 1
fi

bad=()
for f in "${files[@]}"; do
  "$clangFormat" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf 'check_format: not formatted: %s\n' "${bad[@]}" >&2
  echo "check_format: fix with scripts/check_format.sh --fix" >&2
  exit 1
fi
echo "check_format: ${#files[@]} file(s) formatted"
