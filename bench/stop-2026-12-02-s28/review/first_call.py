"""The first call of each model's from_dict (model's 4bcb5e6: generated at the first call), in a
fresh process, done in odd ways, NEW vs OLD. MODE: sub (first call by a subclass), err (first
call with a bad input), map (first call with a MappingProxyType), threads (8 threads at once),
nested (first built as a nested object of Response / an item). Then normal inputs. Compared as
model_fuzz does. Usage: first_call.py MODE"""
import random, sys, threading, types
sys.path.insert(0, "/work/notes/review3")
import model_fuzz as MF
import attrs

mode = sys.argv[1]
rng = random.Random(5)
by_type, by_key = MF.collect_corpus()
runs = diffs = 0


def cmp(label, fa, fb, ia, ib):
    global runs, diffs
    ra, rb = MF.call(fa, ia), MF.call(fb, ib)
    runs += 1
    if ra != rb:
        diffs += 1
        if diffs <= 8:
            print("DIFF", label, "\n  new", repr(ra)[:500], "\n  old", repr(rb)[:500])


names = sorted(MF.CN)
bases = {n: MF.pairs(n, by_type, by_key, rng)[0] for n in names}
if mode == "nested":
    for n in ("Response",):
        pass
    resp = dict(by_key["response"][0]) if by_key.get("response") else {}
    # a Response holding every item/part/annotation seen
    items = [x for t in MF.MN.OUTPUT_ITEM_TYPES for x in by_type.get(t, [])[:1]]
    resp["output"] = items + [{"type": "message", "content": [dict(bases["ResponseOutputText"], annotations=[bases[a] for a in ("FileCitation", "URLCitation", "ContainerFileCitation", "FilePath")])]}]
    resp["usage"] = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1,
                     "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
    resp["error"] = {"code": "c", "message": "m"}
    resp["incomplete_details"] = {"reason": "r"}
    cmp("Response first", MF.CN["Response"].from_dict, MF.CB["Response"].from_dict, MF.dcopy(resp), MF.dcopy(resp))
for n in names:
    cn, cb = MF.CN[n], MF.CB[n]
    base = bases[n]
    if mode == "sub":
        sn = attrs.frozen(type("Sub" + n, (cn,), {}))
        sb = attrs.frozen(type("Sub" + n, (cb,), {}))
        cmp(f"{n} first by subclass", sn.from_dict, sb.from_dict, MF.dcopy(base), MF.dcopy(base))
    elif mode == "err":
        fs = MF.fields_of(cn)
        d = MF.dcopy(base)
        if fs:
            d[fs[-1].name] = [[1]]
            d[fs[0].name] = True
        cmp(f"{n} first with bad input", cn.from_dict, cb.from_dict, MF.dcopy(d), MF.dcopy(d))
    elif mode == "map":
        cmp(f"{n} first with mappingproxy", cn.from_dict, cb.from_dict, types.MappingProxyType(MF.dcopy(base)), types.MappingProxyType(MF.dcopy(base)))
    elif mode == "threads":
        res = {}
        barrier = threading.Barrier(8)
        def go(k):
            barrier.wait()
            res[k] = MF.call(cn.from_dict, MF.dcopy(base))
        ts = [threading.Thread(target=go, args=(k,)) for k in range(8)]
        for t in ts: t.start()
        for t in ts: t.join()
        ref = MF.call(cb.from_dict, MF.dcopy(base))
        runs += 1
        if any(v != ref for v in res.values()):
            diffs += 1; print("DIFF threads first call", n, [k for k, v in res.items() if v != ref])
    # then normal use
    for label, d in list(MF.variants(rng, base, cn))[:40]:
        cmp(f"{n} after first: {label}", cn.from_dict, cb.from_dict, MF.dcopy(d), MF.dcopy(d))
    # a subclass after the first call
    sn = attrs.frozen(type("Sub2" + n, (cn,), {}))
    sb = attrs.frozen(type("Sub2" + n, (cb,), {}))
    cmp(f"{n} subclass after", sn.from_dict, sb.from_dict, MF.dcopy(base), MF.dcopy(base))
print(f"first_call mode={mode} runs={runs} differ={diffs}")
