#!/usr/bin/env bash
# Regenerates tests/data/gnubg/: matches GNU Backgammon (Debian package gnubg) played against
# itself, exported as .mat, so that the tests that need real clean records (the mutation suite)
# run on a clone with no ../shared beside it:
#     bash tests/data/make-gnubg-matches.sh
set -euo pipefail
cd "$(dirname "$0")/gnubg"
gnubg=${GNUBG:-/usr/games/gnubg}
lengths=(3 5 7 9 11 5 7 13 1 3 0 0 25)
for i in "${!lengths[@]}"; do
    len=${lengths[$i]}; seed=$((700 + i)); name=$(printf 'm%02d-%s' "$i" "$([ "$len" = 0 ] && echo money || echo "${len}pt")")
    {
        echo "set display off"; echo "set automatic game off"
        echo "set player 0 gnubg"; echo "set player 1 gnubg"
        echo "set player 0 name p${i}a"; echo "set player 1 name q${i}b"
        for p in 0 1; do
            echo "set player $p chequerplay evaluation plies 0"
            echo "set player $p cubedecision evaluation plies 0"
        done
        echo "set seed $seed"
        if [ "$len" = 0 ]; then
            echo "set jacoby on"; echo "set beavers 2"; echo "new session"
            for _ in 1 2 3 4; do echo "new game"; done
        else
            echo "set automatic game on"; echo "new match $len"
        fi
        echo "export match mat $name.mat"
        echo "quit"; echo "y"
    } | "$gnubg" -t -q > /dev/null 2>&1
    sed -i 's/EventDate "[0-9.]*"/EventDate "2026.12.01"/' "$name.mat"   # keep the files stable
done
