#!/bin/bash
C=$1; S=$2
PY=/work/wt-review/.venv/bin/python
R=/work/notes/review3
L=/tmp/r3/logs/$C
mkdir -p $L
cd /tmp
run() { local name=$1; shift; local t0=$(date +%s); nice -n 10 "$@" > $L/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s) - t0 ))s: $(tail -1 $L/$name.log)" >> $L/summary.txt; }
echo "commit $C seed $S start $(date -u +%H:%M:%S) (chat parsed digests on)" >> $L/summary.txt
run model   $PY $R/model_fuzz.py $S 2
for m in sub threads nested; do run first_$m $PY $R/first_call.py $m; done
run real    $PY $R/stream_fuzz.py real $S
CHAT_FORMAT=1 run realfmt $PY $R/stream_fuzz.py real $((S+1))
run onebl   $PY $R/one_block.py $S 3000
run gen     $PY $R/stream_fuzz.py gen $S
CHAT_FORMAT=1 run genfmt $PY $R/stream_fuzz.py gen $((S+1))
run mut     $PY $R/stream_fuzz.py mut $S 1
run pickle  $PY $R/pickle_check.py $S 40
run sse     $PY $R/sse_fuzz.py $S 300
run large   $PY $R/sse_large.py $S 60
echo "end $(date -u +%H:%M:%S)" >> $L/summary.txt
