#!/bin/sh
# run_uc.sh SEED N [PP]: unit_cuts under the tree PP (default main = /tmp/f4_pp) and before; diff
cd /tmp; S=$1; N=$2; PP=${3:-/tmp/f4_pp}
PYTHONPATH=$PP nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/unit_cuts.py $S $N > /tmp/r2/uc_a$S.txt 2>/tmp/r2/uc_a$S.err
PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/unit_cuts.py $S $N > /tmp/r2/uc_b$S.txt 2>/tmp/r2/uc_b$S.err
echo "seed $S: after: $(tail -1 /tmp/r2/uc_a$S.err) | before: $(tail -1 /tmp/r2/uc_b$S.err) | differing lines $(diff /tmp/r2/uc_b$S.txt /tmp/r2/uc_a$S.txt | grep -c '^>') | shared calls $(awk '{s+=$3} END {print s}' /tmp/r2/uc_a$S.txt)"
