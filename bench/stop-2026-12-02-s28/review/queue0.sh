#!/bin/bash
# self-check batch: NEW == OLD tree at 0798a60 must give zero differences
PY=/work/wt-review/.venv/bin/python
cd /tmp
L=/tmp/r3/logs
nice -n 10 $PY /work/notes/review3/sse_fuzz.py 2 300 > $L/sse2.log 2>&1
nice -n 10 $PY /work/notes/review3/sse_fuzz.py 3 60 --big > $L/sse3big.log 2>&1
nice -n 10 $PY /work/notes/review3/stream_fuzz.py mut 1 2 > $L/mut1.log 2>&1
nice -n 10 $PY /work/notes/review3/stream_fuzz.py json 1 2 > $L/json1.log 2>&1
nice -n 10 $PY /work/notes/review3/model_fuzz.py 2 3 > $L/model2.log 2>&1
echo done > $L/queue0.done
