#!/usr/bin/env bash
# shapes.py's full table, A (baseline) and B alternated; $1 = B tree, $2 = label, $3 = rounds
set -u
OUT=/work/notes/s29/runs; mkdir -p $OUT
PY=/work/wt-lead/.venv/bin/python
mkdir -p /tmp/base-lib /tmp/b-lib
ln -sfn /work/wt-base/sansio_responses /tmp/base-lib/sansio_responses
ln -sfn $1/sansio_responses /tmp/b-lib/sansio_responses
cd /tmp
PEERS=ours+snapshot,ours+final,ours+orjson,ours+final+orjson,httpx-sse,floor
for i in $(seq 1 ${3:-2}); do
  for side in base b; do
    name=$side; [ $side = b ] && name=$2
    uptime > $OUT/seq-$name-$i.md
    PYTHONPATH=/tmp/$side-lib:/work/wt-lead $PY /work/wt-lead/bench/shapes.py --runs 5 --final-runs 7 --clock cpu --no-memory --peers $PEERS >> $OUT/seq-$name-$i.md 2>&1
  done
done
echo done > $OUT/DONE-$2
