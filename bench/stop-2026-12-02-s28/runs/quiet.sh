#!/usr/bin/env bash
# On the machine with nothing else running (after the CI): the final events in-process A/B, the
# final-event column of shapes.py alternated before/after, then the SDK comparison (sdk_quiet.sh).
OUT=/work/notes/runs16
PY=/work/wt-lead/.venv/bin/python
{ uptime; cd /work/wt-after && $PY bench/final_ab.py /work/wt-before --b /work/wt-after --shapes text,function_call,reasoning --rounds 41 2>&1 | tail -4; uptime; } > $OUT/quiet-final-ab.md
cd /tmp
for i in 1 2; do for side in before after; do
  uptime > $OUT/quiet-final-$side-$i.md
  PYTHONPATH=/tmp/$side-lib:/work/wt-after $PY /work/wt-after/bench/shapes.py --shapes text,function_call,reasoning --runs 3 --final-runs 9 --clock cpu --no-memory --peers ours+snapshot,httpx-sse >> $OUT/quiet-final-$side-$i.md 2>&1
done; done
bash /work/notes/runs16/sdk_quiet.sh
echo DONE > $OUT/QUIET
