#!/bin/sh
# run_sse.sh SEED N [PP]: last stop's sse_diff.py (SSEDecoder) under PP (default main) and before
cd /tmp; S=$1; N=$2; PP=${3:-/tmp/f4_pp}; R=/work/main/bench/stop-2026-12-02/review
PYTHONPATH=$PP nice -n 19 /work/wt-review/.venv/bin/python $R/sse_diff.py /tmp/r2/sse_a$S.pkl $N $S
PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python $R/sse_diff.py /tmp/r2/sse_b$S.pkl $N $S
/work/wt-review/.venv/bin/python $R/cmp_pickles.py /tmp/r2/sse_b$S.pkl /tmp/r2/sse_a$S.pkl
rm -f /tmp/r2/sse_a$S.pkl /tmp/r2/sse_b$S.pkl
