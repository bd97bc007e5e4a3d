"""Are proofs taken and used (fe8edcc)? A 15000-piece non-ASCII text body (last stop's synth2),
events on and off: counts _prove and _proved calls and _proved hits, the digest kind, and checks
every event's to_dict() == json.loads(data). Then the same body with one byte of the terminal
event's text changed (same length): the proof must refuse it. Usage: check_proofs.py"""
import json, random, sys
sys.path.insert(0, "/work/notes/review")
from synth2 import body
import sansio_responses as sr
from sansio_responses import _base as B
c = {"prove": 0, "proved": 0, "hit": 0}
op, opd = B._prove, B._proved
def prove(*a):
    c["prove"] += 1; return op(*a)
def proved(*a):
    c["proved"] += 1; r = opd(*a); c["hit"] += r >= 0; return r
B._prove, B._proved = prove, proved
rng = random.Random(1)
words = ["héllo ", "wörld ", "a/b ", 'q"uote ', "back\\slash ", "line\nfeed ", "ünï ", "😀 "]
ps = [rng.choice(words) for _ in range(15000)]
text = "".join(ps)
m = len(text) // 2
changed = text[:m] + ("é" if text[m] != "é" else "ö") + text[m + 1:]
for name, b in (("same", body(ps)), ("terminal-changed", body(ps, (None, None, None, changed)))):
    for events in (True, False):
        for k in c: c[k] = 0
        s = sr.ResponsesStream(events=events)
        evs = s.feed(b) + s.close()
        datas = [blk.split(b"\ndata: ", 1)[1] for blk in b.split(b"\n\n") if b"\ndata: " in blk]
        bad = sum(1 for e, d in zip(evs, datas) if e.to_dict() != json.loads(d)) if events else 0
        snap = s.snapshot().to_dict()
        final = json.loads(datas[-1])["response"]["output"]
        print(name, "events" if events else "no-events", "KEYED_DIGEST", B.KEYED_DIGEST, dict(c), "bad events", bad,
              "snapshot==terminal output", snap["output"] == final)
