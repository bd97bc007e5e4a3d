#!/bin/sh
# run_gen.sh SEED [PP]: gen_diff.py under PP (default main) and before, compare
cd /tmp; S=$1; PP=${2:-/tmp/f4_pp}
PYTHONPATH=$PP nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/gen_diff.py /tmp/r2/gen_a$S.pkl $S
PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/gen_diff.py /tmp/r2/gen_b$S.pkl $S
/work/wt-review/.venv/bin/python /work/main/bench/stop-2026-12-02/review/cmp_stream.py /tmp/r2/gen_b$S.pkl /tmp/r2/gen_a$S.pkl 4
