"""Chat logprobs holder (entries, 942ccd6): chat_logprobs bodies (bench/generate.py) and the real
Chat recordings with logprobs, stdlib and orjson, events on/off, fed in random chunks. After
each chunk (some of them) a snapshot is taken and kept unread; at the end every kept snapshot and
every chunk event is read (to_dict, choices' logprobs), and pickled / copy.copy'd / deepcopy'd
BEFORE and after its first read. Prints one digest line per body and decoder; run under both
trees and diff. Also: 3 threads read snapshots' logprobs while the stream is fed (prefix check),
and a gc-disabled run checks the stream is freed by refcounting. Usage: chat_entries.py SEED"""
import copy, gc, glob, hashlib, json, pickle, random, sys, threading, weakref
sys.path.insert(0, "/work/wt-before/bench")
import generate as G
import sansio_responses as sr

def val(x, how=None):
    try:
        if how == "pickle": x = pickle.loads(pickle.dumps(x))
        elif how == "copy": x = copy.copy(x)
        elif how == "deepcopy": x = copy.deepcopy(x)
    except Exception as exc:
        return ("copy-raised", how, type(exc).__name__, str(exc)[:80])
    try:
        d = x.to_dict()
    except Exception as exc:
        d = ("to_dict-raised", type(exc).__name__, str(exc)[:80])
    lps = []
    try:
        for ch in getattr(x, "choices", None) or []:
            lp = getattr(ch, "logprobs", None)
            lps.append(repr(lp.to_dict() if hasattr(lp, "to_dict") else lp))
    except Exception as exc:
        lps.append(("lp-raised", type(exc).__name__, str(exc)[:80]))
    return repr(d), lps

def lp_content(d):
    out = []
    for ch in d.get("choices") or []:
        lp = ch.get("logprobs") or {}
        out.append(lp.get("content") or [])
    return out

def main():
    seed = int(sys.argv[1])
    rng = random.Random(seed)
    bodies = [(f"gen{n}", G.generate("chat_logprobs", n, seed=seed + n).data) for n in (3, 40, 400, 2500)]
    bodies += [(f.rsplit("/", 1)[1], open(f, "rb").read())
               for f in sorted(glob.glob("/work/wt-before/tests/data/real/chat-*.sse"))
               if b'"logprobs":{' in open(f, "rb").read()]
    total = {"copies": 0, "copy_mismatch": 0}
    for name, body in bodies:
        for dec in ("stdlib", "orjson"):
            kw = {"json_loads": json.loads} if dec == "stdlib" else {}
            for events in (True, False):
                s = sr.ChatCompletionsStream(events=events, **kw)
                cuts = sorted(rng.randint(0, len(body)) for _ in range(rng.randint(1, 25)))
                parts = [body[a:b] for a, b in zip([0] + cuts, cuts + [len(body)])]
                evs, snaps, err = [], [], None
                try:
                    for p in parts:
                        evs += s.feed(p)
                        if rng.random() < 0.4:
                            snaps.append(s.snapshot())
                    evs += s.close()
                except Exception as exc:
                    err = (type(exc).__name__, str(exc)[:200])
                snaps.append(s.snapshot())
                h = hashlib.sha256()
                objs = [x for x in snaps + evs if x is not None]
                for k, x in enumerate(objs):
                    how = rng.choice(["pickle", "copy", "deepcopy", None, None])
                    first = val(x, how) if how else None       # a copy before the original is read
                    ref = val(x)                                # the original, read
                    h.update(repr(ref).encode("utf-8", "surrogatepass"))
                    if how:
                        total["copies"] += 1
                        if first != ref:
                            total["copy_mismatch"] += 1
                            if total["copy_mismatch"] <= 5:
                                print("COPY-DIFF", name, dec, events, k, how, str(first)[:200], "|", str(ref)[:200], file=sys.stderr)
                        later = val(x, how)                     # a copy after the read
                        if later != ref:
                            total["copy_mismatch"] += 1
                print(name, dec, events, err, h.hexdigest()[:16], len(objs))
                del s, evs, snaps, objs
    # threads
    sys.setswitchinterval(1e-6)
    tbad = truns = tsnaps = 0
    for name, body in bodies[:3] + bodies[4:5]:
        for dec in ("stdlib", "orjson"):
            kw = {"json_loads": json.loads} if dec == "stdlib" else {}
            ref = sr.ChatCompletionsStream(**kw); ref.feed(body); ref.close()
            final = lp_content(ref.snapshot().to_dict())
            s = sr.ChatCompletionsStream(**kw)
            stop = False; errors = []; got = []
            def reader():
                while not stop:
                    try:
                        snap = s.snapshot()
                        if snap is not None: got.append(lp_content(snap.to_dict()))
                    except Exception as e:
                        errors.append(repr(e)); return
            ts = [threading.Thread(target=reader) for _ in range(3)]
            for t in ts: t.start()
            for i in range(0, len(body), 257):
                s.feed(body[i:i + 257])
            s.close(); stop = True
            for t in ts: t.join()
            truns += 1; tsnaps += len(got)
            if errors: tbad += 1; print("thread errors", errors[:2], file=sys.stderr)
            if lp_content(s.snapshot().to_dict()) != final: tbad += 1
            for g in got:
                if any(a != f[: len(a)] for a, f in zip(g, final)): tbad += 1; break
    print("threads runs", truns, "snapshots", tsnaps, "bad", tbad, file=sys.stderr)
    # cycles
    gc.collect(); gc.disable()
    cbad = cn = 0
    for name, body in bodies:
        for dec in ("stdlib", "orjson"):
            kw = {"json_loads": json.loads} if dec == "stdlib" else {}
            for events in (True, False):
                s = sr.ChatCompletionsStream(events=events, **kw)
                evs = s.feed(body[: len(body) // 2]); snap = s.snapshot()
                evs += s.feed(body[len(body) // 2:]) + s.close()
                for e in evs[:50]:
                    getattr(e, "snapshot", None)
                r = weakref.ref(s); del s
                alive = r() is not None
                del evs, snap
                found = gc.collect(); cn += 1
                if alive or found: cbad += 1
    gc.enable()
    print("cycles runs", cn, "bad", cbad, "| copies", total["copies"], "copy mismatches", total["copy_mismatch"], file=sys.stderr)

if __name__ == "__main__":
    main()
