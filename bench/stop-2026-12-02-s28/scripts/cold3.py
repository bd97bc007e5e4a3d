import sys, json, gc, time, statistics
T = time.perf_counter
junk = [dict(a=i) for i in range(int(sys.argv[1]))]
def f(): return sum(range(100))
def g(): return [{} for _ in range(50)]
res = {}
for k in range(41):
    gc.collect()
    t0 = T(); t1 = T(); f(); t2 = T(); f(); t3 = T(); g(); t4 = T(); g(); t5 = T()
    for name, v in (("empty", t1-t0), ("f first", t2-t1), ("f second", t3-t2), ("g first", t4-t3), ("g second", t5-t4)):
        res.setdefault(name, []).append(v)
for name, v in res.items(): print(f"{name:10s} {statistics.median(v)*1e6:.2f}")
