#!/bin/bash
# The sensitivity of opening suites (docs/BENCHMARKS.md, "Opening suites"): for known
# differences and a null test, the same number of game pairs on each suite, then the SPRT
# replayed over random orders of the pairs. Resumable: run it again after a kill.
#   scripts/sensitivity.sh [OUT_DIR] [PAIRS]
set -eu
out=${1:-runs/sens}
pairs=${2:-200}
bin=${FANORONA_BIN:-target/release/fanorona}
mkdir -p "$out"
suites=("random:plies=4" "start" "suite:balanced" "suite:unbalanced")
names=("random4" "start" "balanced" "unbalanced")
# Each test: name, first engine, second engine.
tests=(
  "time|alphabeta:movetime=40;name=hc-40ms|alphabeta:movetime=20;name=hc-20ms"
  "depth|alphabeta:depth=5;name=hc-d5|alphabeta:depth=4;name=hc-d4"
  "net|alphabeta:movetime=20,eval=embedded;name=net-20ms|alphabeta:movetime=20;name=hc-20ms"
  "null|alphabeta:movetime=20;name=hc-a|alphabeta:movetime=20;name=hc-b"
)
for i in "${!suites[@]}"; do
  for t in "${tests[@]}"; do
    IFS='|' read -r test a b <<< "$t"
    dir="$out/${names[$i]}-$test"
    [ -f "$dir.json" ] && continue
    "$bin" eval -e "$a" -e "$b" -n $((pairs * 2)) -c 2 --openings "${suites[$i]}" --seed 1 \
      -o "$dir" --resume --json > "$dir.json.part"
    mv "$dir.json.part" "$dir.json"
  done
done
"$bin" eval replay "$out"/*-*/ --sprt elo0=0,elo1=10 --orders 500 --json > "$out/replay.json"
"$bin" eval replay "$out"/*-*/ --sprt elo0=0,elo1=10 --orders 500
