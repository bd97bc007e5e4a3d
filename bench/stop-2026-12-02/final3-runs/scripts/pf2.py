import sys, gc, json, time, statistics as S
junk=[]
for clock in (time.process_time, time.perf_counter):
  for mode in ("warm","cold"):
    r=[];e=[]
    for _ in range(50):
        if mode!="warm":
            junk[:] = [{"a":[i, str(i)]} for i in range(50000)]; junk.clear(); gc.collect()
        t0=clock(); r.append(clock()-t0)
        t0=clock(); json.loads(b'{"a":1}'); e.append(clock()-t0)
    print(clock.__name__, mode, "empty", S.median(r)*1e6, "loads", S.median(e)*1e6)
