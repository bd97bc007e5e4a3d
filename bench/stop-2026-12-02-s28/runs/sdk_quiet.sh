#!/usr/bin/env bash
# the SDK comparison on the text stream, before/after alternated, on the machine with nothing else running
OUT=/work/notes/runs16
PY=/work/wt-lead/.venv/bin/python
cd /tmp
for i in 1 2; do for side in before after; do
  uptime > $OUT/sdk-quiet-$side-$i.md
  PYTHONPATH=/tmp/$side-lib:/work/wt-after $PY /work/wt-after/bench/run.py --scenarios text --sizes 20000 --runs 5 --peers ours+snapshot,ours+orjson,ours+final+orjson,sdk,floor --no-memory --clock cpu >> $OUT/sdk-quiet-$side-$i.md 2>&1
done; done
echo DONE > $OUT/SDKQ
