#!/bin/bash
# usage: mut.sh file 'python replace old' 'new' tests...
f=$1; old=$2; new=$3; shift 3
python3 - "$f" "$old" "$new" <<'PY'
import sys
p,o,n=sys.argv[1:4]
s=open(p).read()
assert s.count(o)>=1, ("missing", o)
s=s.replace(o,n,1)
open(p,'w').write(s)
PY
.venv/bin/python -m pytest -q -x -p no:cacheprovider "$@" 2>&1 | tail -1
git checkout -q "$f"
