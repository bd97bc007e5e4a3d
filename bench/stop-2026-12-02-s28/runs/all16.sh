#!/usr/bin/env bash
# every measurement of run 16, one after the other (nothing else running but the last review)
cd /tmp
bash /work/notes/runs16/quiet.sh
bash /work/notes/runs16/final_bench16.sh
bash /work/notes/runs16/ab16.sh
bash /work/notes/runs16/levers16.sh
{ uptime; nice -n 0 /work/wt-lead/.venv/bin/python /work/notes/s28/parsed_reads.py /work/wt-c-4bcb5e6 /work/wt-c-fda747f 9; uptime; } > /work/notes/runs16/parsed-reads.md 2>&1
echo ALLDONE > /work/notes/runs16/ALLDONE
