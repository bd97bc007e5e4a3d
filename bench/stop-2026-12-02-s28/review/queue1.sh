#!/bin/bash
PY=/work/wt-review/.venv/bin/python
cd /tmp
L=/tmp/r3/logs
nice -n 10 $PY /work/notes/review3/stream_fuzz.py json 1 2 > $L/json1.log 2>&1
nice -n 10 $PY /work/notes/review3/stream_fuzz.py big 1 1 > $L/big1.log 2>&1
echo done > $L/queue1.done
