#!/usr/bin/env bash
# clang-tidy over PE Lab's own sources with the repository's .clang-tidy, using the compile
# commands of a build. Without arguments: the C++ files a change touches (those changed since
# origin/main, or in the last commit when HEAD is origin/main); --all: every file of core/, app/, tests/ and bench/ (about six
# minutes on two cores). Prints each warning and a count; exits 1 when there is any.
# Usage: scripts/tidy.sh [--all | FILE…] [--build DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
files=()
all=false
while [ $# -gt 0 ]; do
    case "$1" in
    --all) all=true ;;
    --build) build=$2; shift ;;
    *) files+=("$1") ;;
    esac
    shift
done
command -v clang-tidy >/dev/null || bash "$root/scripts/deps.sh" test
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json (build first)"; exit 2; }
# A unity build's compile commands name its batches (pelab_unity/*.cxx), not our files, and every
# file would be skipped as "not compiled": configure (no build) the same tree without batches
# beside it, for its compile commands alone.
if grep -q '/pelab_unity/' "$build/compile_commands.json"; then
    cmake -S "$root" -B "$build/tidy-db" -DCMAKE_BUILD_TYPE=Release -DPELAB_UNITY=OFF >/dev/null
    build=$build/tidy-db
fi
cd "$root"
if $all; then
    mapfile -t files < <(git ls-files 'core/*.cpp' 'app/*.cpp' 'tests/*.cpp' 'bench/*.cpp')
elif [ ${#files[@]} -eq 0 ]; then
    # The change: what this branch adds to origin/main, or (on main itself, as in a fresh
    # clone) the last commit.
    base=$(git rev-parse --verify -q origin/main || true)
    if [ -z "$base" ] || [ "$base" = "$(git rev-parse HEAD)" ]; then
        base=$(git rev-parse --verify -q HEAD~1 || git rev-parse HEAD)
    fi
    mapfile -t files < <(git diff --name-only "$base" -- '*.cpp' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
fi
# Only files the build compiles (a header is checked through the files that include it).
mapfile -t files < <(for f in "${files[@]}"; do grep -q "\"file\": \"$root/$f\"" "$build/compile_commands.json" && echo "$f"; done)
if [ ${#files[@]} -eq 0 ]; then echo "tidy: no C++ file to check"; exit 0; fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet >"$log" 2>/dev/null || true
grep -E '^/.*(warning|error):' "$log" | sort -u || true
count=$( { grep -E '^/.*(warning|error):' "$log" || true; } | sort -u | wc -l)
echo "tidy: ${#files[@]} files, $count warnings"
[ "$count" -eq 0 ]
