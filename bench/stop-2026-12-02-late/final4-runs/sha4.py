import hashlib, gc, time, statistics, os, hmac
data=os.urandom(92000)
junk=[{i:[i]} for i in range(100000)]
v=memoryview(data)
h0=hashlib.sha256()
fs={
 "new": lambda: hashlib.sha256(v[10:90010]).digest(),
 "copy": lambda: (lambda h: (h.update(v[10:90010]), h.digest()))(h0.copy()),
 "hmac": lambda: hmac.digest(b"", v[10:90010], "sha256"),
 "blake2b": lambda: hashlib.blake2b(v[10:90010], digest_size=32).digest(),
}
R={k:[] for k in fs}
for i in range(40):
    for k,f in fs.items():
        gc.collect()
        t0=time.perf_counter(); f(); R[k].append(time.perf_counter()-t0)
for k in R: print(k, "%.1f" % (statistics.median(R[k])*1e6))
