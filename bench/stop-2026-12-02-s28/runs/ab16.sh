#!/usr/bin/env bash
# in-process A/B, before (0798a60) vs after (/work/wt-after)
OUT=/work/notes/runs16
PY=/work/wt-lead/.venv/bin/python
cd /work/wt-after
{
uptime
for s in text function_call reasoning; do
  for j in stdlib orjson; do
    echo "== $s $j"; $PY bench/ab.py /work/wt-before --b /work/wt-after --scenario $s --n 20000 --rounds 11 --json $j 2>&1 | tail -3
  done
done
for j in stdlib orjson; do echo "== text_logprobs $j"; $PY bench/ab.py /work/wt-before --b /work/wt-after --scenario text_logprobs --n 5000 --rounds 7 --json $j 2>&1 | tail -3; done
echo "== text 64B stdlib"; $PY bench/ab.py /work/wt-before --b /work/wt-after --scenario text --n 10000 --chunk 64 --rounds 9 --json stdlib 2>&1 | tail -3
for s in chat_text chat_tools chat_logprobs; do echo "== $s stdlib"; $PY bench/ab.py /work/wt-before --b /work/wt-after --chat --scenario $s --n 20000 --rounds 9 --json stdlib 2>&1 | tail -3; done
echo "== final events"; $PY bench/final_ab.py /work/wt-before --b /work/wt-after --shapes text,function_call,reasoning,text_logprobs,image --rounds 25 2>&1 | tail -12
uptime
} > $OUT/ab.md 2>&1
echo DONE >> $OUT/ab.md
