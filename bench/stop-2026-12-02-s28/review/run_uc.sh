#!/bin/sh
# review2's unit_cuts (load_sharing/_cuts) under NEW (/work/wt-review) and OLD (0798a60); digests diffed
cd /tmp; S=$1; N=$2; mkdir -p /tmp/r3/uc
PYTHONPATH=${PPNEW:-/tmp/r3pp_new} nice -n 10 /work/wt-review/.venv/bin/python /work/notes/review2/unit_cuts.py $S $N > /tmp/r3/uc/a$S.txt 2>/tmp/r3/uc/a$S.err
PYTHONPATH=/tmp/r3pp_old nice -n 10 /work/wt-review/.venv/bin/python /work/notes/review2/unit_cuts.py $S $N > /tmp/r3/uc/b$S.txt 2>/tmp/r3/uc/b$S.err
echo "unit_cuts seed $S: new: $(tail -1 /tmp/r3/uc/a$S.err) | old: $(tail -1 /tmp/r3/uc/b$S.err) | differing lines $(diff /tmp/r3/uc/b$S.txt /tmp/r3/uc/a$S.txt | grep -c '^>')"
