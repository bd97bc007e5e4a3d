"""Resume differential: a body cut after a random block (or mid-block), close (truncated),
reconnect(), then a second body replaying from a random earlier block (overlap skipped), or a
body naming another response (rolled back). Real Responses recordings and logprobs bodies.
Prints one digest line per case. Usage: resume_diff.py SEED"""
import gc, glob, hashlib, json, os, random, sys
sys.path.insert(0, "/work/notes/review")
from lp_multi import gen
import sansio_responses as sr

def dg(x): return hashlib.sha256(repr(x).encode()).hexdigest()[:12]
rng = random.Random(int(sys.argv[1]))
bodies = [(f, open(f, "rb").read()) for f in sorted(glob.glob("/work/wt-review/tests/data/real/responses-*.sse"))]
bodies += [(f"lp{i}", gen(rng)) for i in range(6)]
for name, body in bodies:
    blocks = [b + b"\n\n" for b in body.split(b"\n\n") if b.strip()]
    for trial in range(4):
        k = rng.randint(1, max(1, len(blocks) - 1))
        first = b"".join(blocks[:k])
        if rng.random() < 0.3 and k < len(blocks):
            first += blocks[k][: rng.randint(1, len(blocks[k]) - 1)]
        start = rng.randint(max(0, k - 5), k)
        second = b"".join(blocks[start:])
        if rng.random() < 0.15:
            second = second.replace(b'"resp_', b'"resp_X', 1)
        for events in (True, False):
            for jl in (None, json.loads):
                s = sr.ResponsesStream(events=events, json_loads=jl)
                log = []
                def step(f):
                    try: r = f(); log.append(("ok", len(r) if isinstance(r, list) else None))
                    except Exception as e: log.append((type(e).__name__, str(e)[:200], getattr(e, "offset", None)))
                evs = []
                step(lambda: evs.extend(s.feed(first)) or [])
                step(lambda: s.close())
                if os.environ.get("RESUME_FROM"):
                    # a new stream built with resume_from; the old one dropped
                    holder = {}
                    def mk():
                        holder["s"] = sr.ResponsesStream(events=events, json_loads=jl, resume_from=s)
                        return []
                    step(mk)
                    if "s" in holder:
                        s = holder["s"]; gc.collect()
                else:
                    step(lambda: s.reconnect())
                parts = [second[i:i + 997] for i in range(0, len(second), 997)]
                def feed2():
                    for p in parts: evs.extend(s.feed(p))
                    evs.extend(s.close()); return []
                step(feed2)
                try: snap = s.snapshot(); snap = snap.to_dict() if snap is not None else None
                except Exception as e: snap = ("snap-err", type(e).__name__)
                print(name.split("/")[-1], trial, events, jl is not None, log, dg([e.to_dict() for e in evs]), dg(snap), dict(s.diagnostic_counts), s.outcome)
