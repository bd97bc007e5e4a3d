"""The same Responses events over SSE (ResponsesStream) and over the WebSocket
(ResponsesConnection, one lane): snapshot, outcome, diagnostics, errors, events must agree.
Bodies: generated + mutated (mfuzz). Usage: ws_vs_sse.py SEED N"""
import sys, json, random, os
sys.path.insert(0, "/work/notes/review4"); sys.path.insert(0, "/work/wt-review")
import sansio_responses as sr
from bench.generate import generate
import importlib.util
spec = importlib.util.spec_from_file_location("mf", "/work/notes/review4/mfuzz.py")
src = open("/work/notes/review4/mfuzz.py").read().replace("\nmain()\n", "\n")
mf = {"__file__": "/work/notes/review4/mfuzz.py", "__name__": "mf"}; exec(compile(src, "mfuzz", "exec"), mf)

def sse(body):
    s = sr.ResponsesStream(max_event_size=None)
    evs = []; err = None
    try:
        evs += s.feed(body)
    except sr.ProtocolError as e:
        evs += e.events; err = (type(e).__name__, e.sequence_number)
    snap = s.snapshot()
    diags = dict(s.diagnostic_counts); diags.pop("event-name-mismatch", None)  # SSE only
    return [e.to_dict() for e in evs], err, snap and snap.to_dict(), s.outcome, diags

def ws(blocks):
    c = sr.ResponsesConnection()
    c.create({"model": "m"}, stream_id="L")
    evs = []; err = None
    for ev, data in blocks:
        try:
            obj = json.loads(data.decode("utf-8", "replace"))
        except Exception:
            obj = None
        if type(obj) is dict:
            obj["stream_id"] = "L"
            msg = json.dumps(obj, ensure_ascii=False)
        else:
            msg = data.decode("utf-8", "replace")
        try:
            evs += c.receive(msg)
        except sr.ProtocolError as e:
            err = (type(e).__name__, e.sequence_number); break
    s = c.stream("L")
    snap = s.snapshot()
    out = []
    for e in evs:
        d = e.to_dict(); d.pop("stream_id", None); out.append(d)
    return out, err, snap and snap.to_dict(), s.outcome, dict(s.diagnostic_counts)

def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed); bad = 0
    for it in range(n):
        sc = rng.choice(["text", "function_call", "reasoning", "text_items", "image", "text_logprobs"])
        g = generate(sc, rng.choice([1, 5, 30]), seed=rng.randrange(100))
        blocks = mf["split_body"](g.data, False)
        if rng.random() < 0.7:
            blocks = mf["mutate"](rng, blocks)
        body = mf["join"](blocks)
        a, b = sse(body), ws(blocks)
        names = ["events", "error", "snapshot", "outcome", "diagnostics"]
        for name, x, y in zip(names, a, b):
            if json.dumps(x, sort_keys=True, default=repr) != json.dumps(y, sort_keys=True, default=repr):
                bad += 1
                fn = f"/tmp/r4/wsvs-{seed}-{it}.sse"; open(fn, "wb").write(body)
                from h import firstdiff
                print("DIFF", fn, sc, name, repr(firstdiff(x, y))[:500], flush=True)
                break
    print("done", n, "bad", bad)
main()
