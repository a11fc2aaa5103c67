#!/usr/bin/env bash
# The cost the extensions (issue 22) add to a full build: builds the sample and a generated store
# (gen-store --tournaments 200 --seed 7) with a checkout without them (BASE, built with
# `npm run build`) and with this one, one run each, and prints files and wall seconds per build,
# the extension files among them, and the machine's load.
#   scripts/bench-extensions.sh BASE_DIR [WORK_DIR]
set -euo pipefail
base=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
now=2026-11-22T12:00:00Z
ext='^(calendar|feeds)/|/(crosstable|progression|schedule|players|standings/rounds)/'

run() { # label tree store out
  local start end
  start=$(date +%s.%N)
  (cd "$2" && node bin/build-api.js build --db "$3" --out "$4" --now "$now" --jobs 1 >/dev/null 2>&1)
  end=$(date +%s.%N)
  local files extfiles
  files=$(cd "$4" && find . -type f | wc -l)
  extfiles=$(cd "$4" && find . -type f | sed 's|^\./||' | grep -Ec "$ext" || true)
  printf '%-28s files %7d  extension files %6d  %6.1f s  load %s\n' "$1" "$files" "$extfiles" \
    "$(echo "$end - $start" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

for tree in base here; do
  dir=${!tree}
  (cd "$dir" && node bin/build-api.js init-store "$work/$tree-sample.sqlite" --sample >/dev/null)
  (cd "$dir" && node scripts/gen-store.ts --tournaments 200 --seed 7 --out "$work/$tree-200.sqlite" >/dev/null)
done
run "sample, before" "$base" "$work/base-sample.sqlite" "$work/base-sample"
run "sample, after" "$here" "$work/here-sample.sqlite" "$work/here-sample"
run "gen-store 200/7, before" "$base" "$work/base-200.sqlite" "$work/base-200"
run "gen-store 200/7, after" "$here" "$work/here-200.sqlite" "$work/here-200"
echo "cores: $(nproc)"
