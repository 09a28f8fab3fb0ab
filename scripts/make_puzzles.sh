#!/bin/sh
# The shipped puzzle set, src/c4engine/data/puzzles-7x6.jsonl (docs/puzzles.md): games between levels
# by c4 match, then c4 puzzles on them.  Resumable: run it again after a stop and each step goes on
# from its database (the matches) or its checkpoint (the puzzles).  One worker: the machine is shared.
#   sh scripts/make_puzzles.sh [WORK_FOLDER]      (default build-puzzles; C4=path/to/c4 to choose the c4)
set -e
work=${1:-build-puzzles}
c4=${C4:-c4}
mkdir -p "$work"
for pair in "1 3" "2 3" "2 4" "3 4" "3 5" "4 5"; do
    set -- $pair
    "$c4" match "$1" "$2" --games 300 --seed 48 --workers 1 --db "$work/games-$1-vs-$2.sqlite" \
        > "$work/match-$1-vs-$2.txt"
done
"$c4" puzzles "$work"/games-1-vs-3.sqlite "$work"/games-2-vs-3.sqlite "$work"/games-2-vs-4.sqlite \
    "$work"/games-3-vs-4.sqlite "$work"/games-3-vs-5.sqlite "$work"/games-4-vs-5.sqlite \
    -o src/c4engine/data/puzzles-7x6.jsonl --checkpoint "$work/puzzles.sqlite" --workers 1
