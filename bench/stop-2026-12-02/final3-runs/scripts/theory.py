import gc, time, statistics as S, json
clock=time.process_time
ns={}
for i in range(200):
    exec(f"def f{i}(x):\n    y = x + {i}\n    return y * 2\n", ns)
fs=[ns[f"f{i}"] for i in range(200)]
heap=[{"k": [i, str(i), {"z": i}]} for i in range(200000)]  # a heap for gc to traverse
def run(fs_sel):
    for f in fs_sel: f(1)
for label, sel in (("1 fn x100", [fs[0]]*100), ("100 distinct", fs[:100]), ("200 distinct", fs)):
    r=[]
    for _ in range(30):
        gc.collect()
        t0=clock(); run(sel); r.append(clock()-t0)
    w=[]
    for _ in range(30):
        t0=clock(); run(sel); w.append(clock()-t0)
    print(label, "cold %.1f us, warm %.1f us" % (S.median(r)*1e6, S.median(w)*1e6))
