#!/usr/bin/env bash
# Regenerates the GNU Backgammon samples (Debian package gnubg):
#     bash samples/make-gnubg-samples.sh
# gnubg plays itself (0-ply, fixed seeds) and exports each match as .mat and .sgf.
set -euo pipefail
cd "$(dirname "$0")"
gnubg=${GNUBG:-/usr/games/gnubg}

play() {  # play NAME SEED COMMANDS...
    local name=$1 seed=$2; shift 2
    {
        echo "set display off"; echo "set automatic game off"
        echo "set player 0 gnubg"; echo "set player 1 gnubg"
        echo "set player 0 name Alice"; echo "set player 1 name Bob"
        for p in 0 1; do
            echo "set player $p chequerplay evaluation plies 0"
            echo "set player $p cubedecision evaluation plies 0"
        done
        echo "set seed $seed"
        printf '%s\n' "$@"
        echo "export match mat $name.mat"
        echo "save match $name.sgf"
        echo "quit"; echo "y"
    } | "$gnubg" -t -q > /dev/null 2>&1
    sed -i 's/EventDate "[0-9.]*"/EventDate "2026.11.30"/' "$name.mat"   # keep the files stable
    sed -i 's/DT\[[0-9-]*\]/DT[2026-11-30]/' "$name.sgf"
}

play gnubg-5pt-crawford 11 "set automatic game on" "new match 5"
play gnubg-money-jacoby 23 "set jacoby on" "set beavers 3" "new session" "new game" "new game" "new game"
