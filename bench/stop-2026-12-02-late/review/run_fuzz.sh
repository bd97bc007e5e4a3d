#!/bin/sh
# run_fuzz.sh SEED N : fuzz_tmpl.py after (/work/wt-review) and before (/work/wt-before) then compare
cd /tmp
S=$1; N=$2
LATE=1 STRICT=1 nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/fuzz_tmpl.py /tmp/r2/a_$S.pkl $S $N
LATE=1 STRICT=1 PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/fuzz_tmpl.py /tmp/r2/b_$S.pkl $S $N
/work/wt-review/.venv/bin/python /work/main/bench/stop-2026-12-02/review/cmp_stream.py /tmp/r2/b_$S.pkl /tmp/r2/a_$S.pkl 4
