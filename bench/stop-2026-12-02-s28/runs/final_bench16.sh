#!/usr/bin/env bash
# issue 21's table, before (0798a60, /work/wt-before) and after (/work/wt-after = main at the landing deadline), alternated.
set -u
OUT=/work/notes/runs16; mkdir -p $OUT
PY=/work/wt-lead/.venv/bin/python
mkdir -p /tmp/before-lib /tmp/after-lib
ln -sfn /work/wt-before/sansio_responses /tmp/before-lib/sansio_responses
ln -sfn /work/wt-after/sansio_responses /tmp/after-lib/sansio_responses
cd /tmp
PEERS=ours+snapshot,ours+final,ours+orjson,ours+final+orjson,httpx-sse,floor
for i in 1 2; do
  for side in before after; do
    uptime > $OUT/seq-$side-$i.md
    PYTHONPATH=/tmp/$side-lib:/work/wt-after $PY /work/wt-after/bench/shapes.py --runs 5 --final-runs 7 --clock cpu --no-memory --peers $PEERS >> $OUT/seq-$side-$i.md 2>&1
  done
done
for side in before after; do
  PYTHONPATH=/tmp/$side-lib:/work/wt-after $PY /work/wt-after/bench/stream_memory.py > $OUT/stream-memory-$side.md 2>&1
  PYTHONPATH=/tmp/$side-lib:/work/wt-after $PY /work/wt-after/bench/chat_memory.py > $OUT/chat-memory-$side.md 2>&1
done
echo done > $OUT/DONE
