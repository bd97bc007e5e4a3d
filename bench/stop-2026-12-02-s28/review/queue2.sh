#!/bin/bash
PY=/work/wt-review/.venv/bin/python
cd /tmp
L=/tmp/r3/logs
nice -n 10 $PY /work/notes/review3/stream_fuzz.py mut 2 1 > $L/mut2.log 2>&1
nice -n 10 $PY /work/notes/review3/sse_ref.py 3 3000 > $L/ref3.log 2>&1
echo done > $L/queue2.done
