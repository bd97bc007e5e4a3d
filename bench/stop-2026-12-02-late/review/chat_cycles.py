"""Which Chat streams leave a reference cycle (gc disabled; stream dropped): per body, decoder,
events flag, and whether a mid-stream snapshot was taken. Usage: chat_cycles.py"""
import gc, glob, json, sys, weakref
sys.path.insert(0, "/work/wt-before/bench")
import generate as G
import sansio_responses as sr
bodies = [(f"gen{n}", G.generate("chat_logprobs", n, seed=1 + n).data) for n in (3, 400)]
bodies += [("chat_text40", G.generate("chat_text", 40, seed=1).data)]
bodies += [(f.rsplit("/", 1)[1][:40], open(f, "rb").read()) for f in sorted(glob.glob("/work/wt-before/tests/data/real/chat-*logprobs*.sse"))]
for b in bodies[:1]:
    s = sr.ChatCompletionsStream(); s.feed(b[1]); s.close(); s.snapshot(); del s
gc.collect(); gc.disable()
for name, body in bodies:
    for dec in ("stdlib", "orjson"):
        kw = {"json_loads": json.loads} if dec == "stdlib" else {}
        for events in (True, False):
            for mid in (False, True):
                s = sr.ChatCompletionsStream(events=events, **kw)
                evs = s.feed(body[: len(body) // 2]); snap = s.snapshot() if mid else None
                evs += s.feed(body[len(body) // 2:]) + s.close()
                r = weakref.ref(s); del s
                alive = r() is not None
                del evs, snap
                found = gc.collect()
                print(f"{name:42} {dec:6} events={events!s:5} mid_snapshot={mid!s:5} alive={alive!s:5} gc_found={found}")
