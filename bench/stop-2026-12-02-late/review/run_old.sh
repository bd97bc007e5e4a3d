#!/bin/sh
# run_old.sh PP TAG: last stop's scripts (bench/stop-2026-12-02/review) under the tree PP; outputs in /tmp/r2/old_TAG_*
cd /tmp; PP=$1; T=$2; R=/work/main/bench/stop-2026-12-02/review; PY="nice -n 19 /work/wt-review/.venv/bin/python"
export PYTHONPATH=$PP
$PY $R/lp_diff.py /tmp/r2/old_${T}_lp.pkl 80 23 > /tmp/r2/old_${T}_lp.log 2>&1
$PY $R/lp_multi.py 40 24 > /tmp/r2/old_${T}_lpm.txt 2>&1
$PY $R/pickle_events.py > /tmp/r2/old_${T}_pickle.txt 2>&1
$PY $R/resume_diff.py 3 > /tmp/r2/old_${T}_resume.txt 2>&1
RESUME_FROM=1 $PY $R/resume_diff.py 4 > /tmp/r2/old_${T}_resume_from.txt 2>&1
$PY $R/threads_lp.py > /tmp/r2/old_${T}_threads.txt 2>&1
$PY $R/cycles_lp.py > /tmp/r2/old_${T}_cycles.txt 2>&1
SIZES=9000 $PY $R/proof_attack.py > /tmp/r2/old_${T}_proof.txt 2>/tmp/r2/old_${T}_proof.err
echo done $T
