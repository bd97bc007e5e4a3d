"""Count template matches/refusals on fuzz_tmpl bodies (after tree only). Usage: count_tmpl.py SEED N"""
import sys, json, random, collections
sys.path.insert(0, "/work/notes/review2")
import fuzz_tmpl as F
from sansio_responses._responses import templates as T
c = collections.Counter()
orig = T.Template.match
def match(self, p, seq):
    r = orig(self, p, seq)
    c["hit" if r is not None else "refused"] += 1
    return r
T.Template.match = match
origlearn = T.learn
import sansio_responses._responses.inline as I
def learn(obj):
    t = origlearn(obj); c["learnt" if t else "learn-none"] += 1; return t
I.learn = learn
seed, n = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
for i in range(n):
    b = F.body(rng)
    for ev in (True, False):
        F.run([b], ev, "stdlib")
print(dict(c))
