import hashlib, gc, time, statistics, os
data=os.urandom(92000)
junk=[{i:[i]} for i in range(200000)]
base=hashlib.sha256()
def t(f):
    R=[]
    for i in range(41):
        gc.collect()
        t0=time.perf_counter(); f(); R.append(time.perf_counter()-t0)
    return statistics.median(R)*1e6
def a():
    with memoryview(data) as v: return hashlib.sha256(v[500:90500]).digest()
def b():
    with memoryview(data) as v:
        h=base.copy(); h.update(v[500:90500]); return h.digest()
def c(): return data.find(b'"zz',0)
for k in range(2):
    print("sha %.1f copy %.1f find %.1f" % (t(a), t(b), t(c)))
