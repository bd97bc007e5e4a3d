import sys, gc, json, time, resource, statistics as S
clock=time.process_time
junk=[]
def flt(): return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for mode in ("warm","cold","coldnogc"):
    r=[];f=[]
    for _ in range(50):
        if mode!="warm":
            junk[:] = [{"a":[i, str(i)]} for i in range(50000)]; junk.clear()
            if mode=="cold": gc.collect()
        f0=flt(); t0=clock(); json.loads(b'{"a":1}'); r.append(clock()-t0); f.append(flt()-f0)
    print(mode, S.median(r)*1e6, S.median(f))
