import sys, json, time, gc
sys.path.insert(0, '.')
from bench import generate as gen
import sansio_responses as sr
from sansio_responses._chat import stream as st, fast, shape as fast
scen = sys.argv[1]; n = 20000
data = gen.generate(scen, n).data
chunks = [data[i:i+4096] for i in range(0, len(data), 4096)]
def run(cls=sr.ChatCompletionsStream, **kw):
    s = cls(json_loads=json.loads, **kw)
    for c in chunks:
        for e in s.feed(c):
            pass
    try: s.close()
    except Exception: pass
    s.snapshot()
class Frame(sr.ChatCompletionsStream):
    def _on_message(self, et, data, off, out): pass
class Match(sr.ChatCompletionsStream):
    def _on_message(self, et, data, off, out):
        if self._tpls and et == "message" and self.outcome is None:
            for tpl in self._tpls:
                if fast.match(tpl, data) is not None: return
        super()._on_message(et, data, off, out)
class Peer:
    pass
import httpx, httpx_sse
def peer():
    r = httpx.Response(200, content=iter(chunks), headers={"content-type":"text/event-stream"})
    for ev in httpx_sse.EventSource(r).iter_sse():
        if ev.data != "[DONE]": json.loads(ev.data)
cases = {"frame": lambda: run(Frame), "match": lambda: run(Match), "noevents": lambda: run(events=False), "full": run, "peer": peer}
res = {k: [] for k in cases}
for _ in range(9):
    for k, f in cases.items():
        gc.collect(); t = time.process_time(); f(); res[k].append(time.process_time() - t)
for k, v in res.items():
    v.sort(); print(f"{k:10s} {v[len(v)//2]/n*1e6:.3f} us/event")
gc.disable()
res = {k: [] for k in ("full", "noevents", "peer")}
for _ in range(7):
    for k in res:
        t = time.process_time(); cases[k](); res[k].append(time.process_time() - t)
for k, v in res.items():
    v.sort(); print(f"gc off {k:10s} {v[len(v)//2]/n*1e6:.3f} us/event")
