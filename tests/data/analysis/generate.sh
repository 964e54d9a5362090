#!/usr/bin/env bash
# The matches in this folder: GNU Backgammon (Debian's gnubg 1.07) playing itself with noise,
# so that they hold errors of every kind (checker play, missed and wrong doubles, wrong takes
# and passes). Regenerate: tests/data/analysis/generate.sh tests/data/analysis
set -euo pipefail
out=${1:?output folder}
make() {  # make NAME SEED LENGTH|money NOISE
  local name=$1 seed=$2 length=$3 noise=$4
  {
    echo "set display off"
    echo "set automatic game off"
    for p in 0 1; do
      echo "set player $p gnubg"
      echo "set player $p chequerplay evaluation plies 0"
      echo "set player $p chequerplay evaluation noise $noise"
      echo "set player $p cubedecision evaluation plies 0"
      echo "set player $p cubedecision evaluation noise $noise"
    done
    echo "set player 0 name Alice"; echo "set player 1 name Bob"
    echo "set seed $seed"
    if [ "$length" = money ]; then
      echo "set jacoby off"
      echo "new session"
      for ((k=0;k<4;k++)); do echo "new game"; done
    else
      echo "set automatic game on"
      echo "new match $length"
    fi
    echo "export match mat $out/$name.mat"
    echo "quit"; echo "y"
  } | timeout 300 /usr/games/gnubg -t -q -r > /dev/null 2>&1
}
make noisy-3pt 11 3 0.08
make noisy-5pt 12 5 0.05
make noisy-7pt 13 7 0.03
make noisy-11pt 15 11 0.04
make noisy-money 14 money 0.06
# money-beaver.mat (gnubg does not beaver when it plays itself): ../shared/tools/gnubg-matches.sh OUT 6 1
# makes OUT/g0001.mat, a money session; then, to have a beaver and a redouble to 8:
#   sed -e '50s/ Takes/ Beavers => 4/' -e '53s/Doubles => 4/Doubles => 8/' -e '72s/Wins 4 points/Wins 8 points/' OUT/g0001.mat
# noisy-5pt-analysed.sgf: noisy-5pt.mat analysed by gnubg at 0 ply and saved as its SGF (the analysis
# a record holds: analyze --engine recorded reads it); the date fixed to keep the file stable
{
  echo "set display off"; echo "set jacoby off"
  echo "set analysis chequerplay evaluation plies 0"; echo "set analysis cubedecision evaluation plies 0"
  echo "import mat $out/noisy-5pt.mat"; echo "analyse match"; echo "save match $out/noisy-5pt-analysed.sgf"
  echo "quit"; echo "y"
} | timeout 300 /usr/games/gnubg -t -q -r > /dev/null 2>&1
sed -i 's/DT\[[0-9-]*\]/DT[2026-12-01]/' "$out/noisy-5pt-analysed.sgf"
