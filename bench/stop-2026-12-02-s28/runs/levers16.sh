#!/usr/bin/env bash
# each of the lead's levers alone: final-event A/B of the commit before vs the commit after
OUT=/work/notes/runs16
PY=/work/wt-lead/.venv/bin/python
cd /work/wt-after
{
uptime
echo "== call levels: 6b5fbee -> 3b38b29"; $PY bench/final_ab.py /work/wt-c-6b5fbee --b /work/wt-c-3b38b29 --shapes function_call,reasoning,text --rounds 41 2>&1 | tail -4
echo "== _cuts known first: 0137146 -> 9f21577"; $PY bench/final_ab.py /work/wt-c-0137146 --b /work/wt-after --shapes function_call,reasoning,text --rounds 41 2>&1 | tail -4
echo "== thread fix fda747f vs 4bcb5e6, whole streams stdlib"
for s in text function_call; do echo "-- $s"; $PY bench/ab.py /work/wt-c-4bcb5e6 --b /work/wt-c-fda747f --scenario $s --n 20000 --rounds 11 --json stdlib 2>&1 | tail -1; done
for s in chat_tools chat_text; do echo "-- $s"; $PY bench/ab.py /work/wt-c-4bcb5e6 --b /work/wt-c-fda747f --chat --scenario $s --n 20000 --rounds 11 --json stdlib 2>&1 | tail -1; done
echo "-- A/A chat_tools"; $PY bench/ab.py /work/wt-c-fda747f --b /work/wt-c-fda747f --chat --scenario chat_tools --n 20000 --rounds 11 --json stdlib 2>&1 | tail -1
uptime
} > $OUT/levers.md 2>&1
echo DONE >> $OUT/levers.md
