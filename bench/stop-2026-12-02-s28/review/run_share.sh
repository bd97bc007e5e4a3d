#!/bin/sh
# review2's share_fuzz (large repeating events, load_sharing) under NEW and OLD; lines diffed
cd /tmp; S=$1; N=$2; mkdir -p /tmp/r3/share
PYTHONPATH=${PPNEW:-/tmp/r3pp_new} nice -n 10 /work/wt-review/.venv/bin/python /work/notes/review2/share_fuzz.py $S $N > /tmp/r3/share/a$S.txt 2>/tmp/r3/share/a$S.err
PYTHONPATH=/tmp/r3pp_old nice -n 10 /work/wt-review/.venv/bin/python /work/notes/review2/share_fuzz.py $S $N > /tmp/r3/share/b$S.txt 2>/tmp/r3/share/b$S.err
echo "share_fuzz seed $S: lines $(wc -l < /tmp/r3/share/a$S.txt), differing $(diff /tmp/r3/share/b$S.txt /tmp/r3/share/a$S.txt | grep -c '^>'), bad(new) $(grep -vc '\[\]$' /tmp/r3/share/a$S.txt), bad(old) $(grep -vc '\[\]$' /tmp/r3/share/b$S.txt)"
