#!/bin/sh
# after fuzz seeds 11-12 (tmpl tree): fuzz_tmpl seed 13 on main (f4_pp) vs before; real_diff mut on main vs before
while [ "$(grep -c differ /tmp/r2/fuzz_11_12.log)" -lt 2 ]; do sleep 10; done
cd /tmp
S=13; N=800
LATE=1 STRICT=1 PYTHONPATH=/tmp/f4_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/fuzz_tmpl.py /tmp/r2/a_$S.pkl $S $N
LATE=1 STRICT=1 PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/fuzz_tmpl.py /tmp/r2/b_$S.pkl $S $N
/work/wt-review/.venv/bin/python /work/main/bench/stop-2026-12-02/review/cmp_stream.py /tmp/r2/b_$S.pkl /tmp/r2/a_$S.pkl 4
PYTHONPATH=/tmp/f4_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/real_diff.py /tmp/r2/mut_a.pkl mut 2 4
PYTHONPATH=/tmp/before_pp nice -n 19 /work/wt-review/.venv/bin/python /work/notes/review2/real_diff.py /tmp/r2/mut_b.pkl mut 2 4
/work/wt-review/.venv/bin/python /work/main/bench/stop-2026-12-02/review/cmp_stream.py /tmp/r2/mut_b.pkl /tmp/r2/mut_a.pkl 4
echo queue_a done
