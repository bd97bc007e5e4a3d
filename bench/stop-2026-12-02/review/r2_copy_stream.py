"""copy.deepcopy / pickle of a whole stream mid-body: does the copy continue like the original?"""
import copy, glob, os, pickle, sys
import sansio_responses as sr
files = sorted(glob.glob("/work/wt-review/tests/data/real/*.sse"))
res = {"deepcopy_ok": 0, "deepcopy_diff": 0, "deepcopy_err": 0, "pickle_ok": 0, "pickle_err": 0}
errs = {}
for f in files:
    data = open(f, "rb").read()
    cls = sr.ChatCompletionsStream if os.path.basename(f).startswith("chat") else sr.ResponsesStream
    def run(s, parts):
        ev = []
        try:
            for p in parts: ev += s.feed(p)
            ev += s.close()
            r = ("ok", s.snapshot().to_dict() if hasattr(s.snapshot(), "to_dict") else repr(s.snapshot()), dict(s.diagnostic_counts))
        except Exception as e:
            r = ("err", type(e).__name__, str(e)[:100])
        return r
    half = len(data) // 2
    ref = run(cls(), [data])
    a = cls(); n1 = len(a.feed(data[:half]))
    try:
        b = copy.deepcopy(a)
        ra = run(a, [data[half:]])
        rb = run(b, [data[half:]])
        if ra == ref and rb == ref: res["deepcopy_ok"] += 1
        else:
            res["deepcopy_diff"] += 1; errs.setdefault("deepcopy_diff", []).append((os.path.basename(f), ra[:2], rb[:2], ra == ref, rb == ref, ra[-1] if ra[0]=="ok" else None, rb[-1] if rb[0]=="ok" else None))
    except Exception as e:
        res["deepcopy_err"] += 1; errs.setdefault("deepcopy:" + type(e).__name__ + ":" + str(e)[:80], []).append(os.path.basename(f))
    a = cls(); a.feed(data[:half])
    try:
        b = pickle.loads(pickle.dumps(a))
        rb = run(b, [data[half:]])
        res["pickle_ok" if rb == ref else "pickle_err"] += 1
    except Exception as e:
        res["pickle_err"] += 1; errs.setdefault("pickle:" + type(e).__name__ + ":" + str(e)[:80], []).append(os.path.basename(f))
print(len(files), res)
for k, v in errs.items(): print(k, len(v), v[:3])
