#!/bin/bash
PY=/work/wt-review/.venv/bin/python
cd /tmp
L=/tmp/r3/logs/ff81017
nice -n 10 $PY /work/notes/review3/sse_large.py 2 120 > $L/sse_large2.log 2>&1
nice -n 10 $PY /work/notes/review3/sse_fuzz.py 12 200 --big > $L/ssebig12.log 2>&1
nice -n 10 $PY /work/notes/review3/sse_fuzz.py 13 600 > $L/sse13.log 2>&1
echo done > $L/queue3.done
