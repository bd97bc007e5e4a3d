#!/bin/sh
# run_share.sh SEED N TREE_PP : share_fuzz under before (/tmp/before_pp) and TREE_PP, diff the lines
cd /tmp
S=$1; N=$2; PP=${3:-/tmp/f4_pp}
PYTHONPATH=$PP nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/share_fuzz.py $S $N > /tmp/r2/share_a_$S.txt
PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/share_fuzz.py $S $N > /tmp/r2/share_b_$S.txt
echo "seed $S: lines $(wc -l < /tmp/r2/share_a_$S.txt), differing $(diff /tmp/r2/share_b_$S.txt /tmp/r2/share_a_$S.txt | grep -c '^>'), bad(after) $(grep -vc '\[\]$' /tmp/r2/share_a_$S.txt)"
