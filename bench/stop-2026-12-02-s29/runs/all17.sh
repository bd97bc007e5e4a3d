#!/usr/bin/env bash
# Run 17: every measurement, before (470824b, /work/wt-base) and after (/work/wt-after = main at
# the landing deadline), one after the other on the machine with nothing else running.
# (Its outputs, written to /work/notes/runs17 when it ran, are the files beside this script; the
# start tree e92409d was /work/wt-start, 470824b /work/wt-base, 5d2a627 /work/wt-after.)
set -u
OUT=/work/notes/runs17
PY=/work/wt-lead/.venv/bin/python
B=/work/wt-base; A=/work/wt-after
mkdir -p /tmp/before-lib /tmp/after-lib /tmp/start-lib
ln -sfn /work/wt-start/sansio_responses /tmp/start-lib/sansio_responses  # e92409d: issue 21's start
ln -sfn $B/sansio_responses /tmp/before-lib/sansio_responses
ln -sfn $A/sansio_responses /tmp/after-lib/sansio_responses
cd $A
# 1. the final events, in-process A/B (bare process, then with the SDK's heap)
{ uptime; $PY bench/final_ab.py $B --b $A --shapes text,function_call,function_call_code,reasoning,text_logprobs,image --rounds 41 2>&1 | tail -7
  $PY bench/final_ab.py $B --b $A --shapes text,function_call,function_call_code,reasoning,text_logprobs,image --rounds 41 --heap 2>&1 | tail -7; uptime; } > $OUT/final-ab.md
# 2. issue 21's table (shapes.py, the new bench for both sides), before/after alternated twice
cd /tmp
PEERS=ours+snapshot,ours+final,ours+orjson,ours+final+orjson,httpx-sse,floor
for i in 1 2; do for side in start before after; do
  uptime > $OUT/seq-$side-$i.md
  PYTHONPATH=/tmp/$side-lib:$A $PY $A/bench/shapes.py --runs 5 --final-runs 9 --clock cpu --no-memory --peers $PEERS >> $OUT/seq-$side-$i.md 2>&1
done; done
# 3. whole streams, in-process A/B
cd $A
{ uptime
for s in text function_call function_call_code reasoning; do
  for j in stdlib orjson; do echo "== $s $j"; $PY bench/ab.py $B --b $A --scenario $s --n 20000 --rounds 11 --json $j 2>&1 | tail -3; done
done
echo "== text_logprobs stdlib"; $PY bench/ab.py $B --b $A --scenario text_logprobs --n 5000 --rounds 7 --json stdlib 2>&1 | tail -3
echo "== text 64B stdlib"; $PY bench/ab.py $B --b $A --scenario text --n 10000 --chunk 64 --rounds 9 --json stdlib 2>&1 | tail -3
for s in chat_text chat_tools chat_logprobs chat_azure; do echo "== $s stdlib"; $PY bench/ab.py $B --b $A --chat --scenario $s --n 20000 --rounds 9 --json stdlib 2>&1 | tail -3; done
uptime; } > $OUT/ab.md 2>&1
# 4. memory
cd /tmp
for side in start before after; do for c in 4096 65536; do
  PYTHONPATH=/tmp/$side-lib:$A $PY $A/bench/stream_memory.py --chunk $c > $OUT/stream-memory-$side-$c.md 2>&1
done
  PYTHONPATH=/tmp/$side-lib:$A $PY $A/bench/chat_memory.py > $OUT/chat-memory-$side.md 2>&1
done
# 5. the SDK on the text stream, before/after alternated twice
for i in 1 2; do for side in before after; do
  uptime > $OUT/sdk-$side-$i.md
  PYTHONPATH=/tmp/$side-lib:$A $PY $A/bench/run.py --scenarios text --sizes 20000 --runs 5 --peers ours+snapshot,ours+orjson,ours+final+orjson,sdk,floor --no-memory --clock cpu >> $OUT/sdk-$side-$i.md 2>&1
done; done
echo DONE > $OUT/ALLDONE
# 5b. 64-byte chunks against the floor (issue 21, item 3: at most 3x), before/after
for side in before after; do
  uptime > $OUT/chunk64-$side.md
  PYTHONPATH=/tmp/$side-lib:$A $PY $A/bench/run.py --scenarios text --sizes 20000 --chunk 64 --runs 5 --peers ours+snapshot,ours+orjson,floor --no-memory --clock cpu >> $OUT/chunk64-$side.md 2>&1
done
# 6. the adapters per read (after only: no adapter changed this stop)
cd $A && { uptime; $PY bench/adapter_reads.py 3000 5 --paced=0.0005 2>&1 | tail -20; uptime; } > $OUT/adapter-reads.md 2>&1
echo DONE > $OUT/ALLDONE6
