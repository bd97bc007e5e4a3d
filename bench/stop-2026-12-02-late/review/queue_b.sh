#!/bin/sh
# after the old scripts: share_fuzz seeds 2,3 (150 bodies) and resume seed 6 (60 bodies); threads/cycles for templates
while ! grep -q "done before" /tmp/r2/old.log; do sleep 10; done
cd /tmp
/work/notes/review2/run_share.sh 2 150
/work/notes/review2/run_share.sh 3 150
RESUME=1 PYTHONPATH=/tmp/f4_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/share_fuzz.py 6 60 > /tmp/r2/res_a6.txt 2>&1
RESUME=1 PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/share_fuzz.py 6 60 > /tmp/r2/res_b6.txt 2>&1
echo "resume seed 6: lines $(wc -l < /tmp/r2/res_a6.txt) differing $(diff /tmp/r2/res_b6.txt /tmp/r2/res_a6.txt | grep -c '^>')"
PYTHONPATH=/tmp/f4_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/threads_cycles_tmpl.py > /tmp/r2/tc_a.txt 2>&1
PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/threads_cycles_tmpl.py > /tmp/r2/tc_b.txt 2>&1
echo queue_b done
