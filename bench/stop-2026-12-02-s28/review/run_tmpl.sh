#!/bin/sh
# review2's fuzz_tmpl (template attacks, random multi-item bodies) under NEW and OLD; compared
cd /tmp; S=$1; N=$2; mkdir -p /tmp/r3/tmpl
LATE=1 STRICT=1 PYTHONPATH=${PPNEW:-/tmp/r3pp_new} nice -n 10 /work/wt-review/.venv/bin/python /work/notes/review2/fuzz_tmpl.py /tmp/r3/tmpl/a_$S.pkl $S $N
LATE=1 STRICT=1 PYTHONPATH=/tmp/r3pp_old nice -n 10 /work/wt-review/.venv/bin/python /work/notes/review2/fuzz_tmpl.py /tmp/r3/tmpl/b_$S.pkl $S $N
/work/wt-review/.venv/bin/python /work/notes/review/cmp_stream.py /tmp/r3/tmpl/b_$S.pkl /tmp/r3/tmpl/a_$S.pkl 4
