#!/bin/bash
# Usage: on_landing.sh COMMIT SEED   -- checks /work/wt-review at COMMIT against /work/wt-before
C=$1; S=$2
PY=/work/wt-review/.venv/bin/python
R=/work/notes/review3
L=/tmp/r3/logs/$C
mkdir -p $L
git -C /work/wt-review checkout -q --detach $C || exit 1
cd /tmp
run() { local name=$1; shift; local t0=$(date +%s); nice -n 10 "$@" > $L/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s) - t0 ))s: $(tail -1 $L/$name.log)" >> $L/summary.txt; }
echo "commit $C seed $S start $(date -u +%H:%M:%S)" > $L/summary.txt
run real    $PY $R/stream_fuzz.py real $S
run model   $PY $R/model_fuzz.py $S 3
run sse     $PY $R/sse_fuzz.py $S 300
run ssebig  $PY $R/sse_fuzz.py $((S+100)) 60 --big
run sseref  $PY $R/sse_ref.py $S 800
run gen     $PY $R/stream_fuzz.py gen $S
run json    $PY $R/stream_fuzz.py json $S 2
run mut     $PY $R/stream_fuzz.py mut $S 1
run big     $PY $R/stream_fuzz.py big $S 1
run pickle  $PY $R/pickle_check.py $S 20
run threads $PY $R/threads_check.py new 1
run mem     $PY $R/mem_peak.py 3
echo "end $(date -u +%H:%M:%S)" >> $L/summary.txt
