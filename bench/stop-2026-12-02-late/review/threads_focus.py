"""Repeat the threaded snapshot test (threads_cycles_tmpl.py) on chosen bodies: 3 reader threads
take snapshot().to_dict() while the main thread feeds 301-byte chunks (switch interval 1 us).
Counts per body/decoder: reader exceptions, final snapshot != single-thread run, snapshot texts
that are neither a prefix of the streamed text nor of the final one.
Usage: threads_focus.py REPS BODY_INDEX... (indices as in threads_cycles_tmpl.py)"""
import json, os, random, sys, threading, collections
sys.path.insert(0, "/work/wt-before/bench"); sys.path.insert(0, "/work/notes/review2")
import generate as G
import fuzz_tmpl as F
import sansio_responses as sr
from threads_cycles_tmpl_lib import texts, bodies_list
reps = int(sys.argv[1]); idx = [int(x) for x in sys.argv[2:]]
bodies = bodies_list()
sys.setswitchinterval(1e-6)
count = collections.Counter()
examples = []
for bi in idx:
    body = bodies[bi]
    for jl in (json.loads, None):
        dec = "stdlib" if jl else "orjson"
        ref = sr.ResponsesStream(json_loads=jl)
        try: ref.feed(body); ref.close()
        except sr.ProtocolError: pass
        r0 = ref.snapshot(); final = r0.to_dict() if r0 is not None else None
        fin = texts(final) if final else {}
        for rep in range(reps):
            s = sr.ResponsesStream(json_loads=jl)
            stop = False; errors = []; got = []
            def reader():
                while not stop:
                    try:
                        snap = s.snapshot()
                        if snap is not None: got.append(snap.to_dict())
                    except Exception as e:
                        errors.append(repr(e)); return
            ts = [threading.Thread(target=reader) for _ in range(3)]
            for t in ts: t.start()
            try:
                for i in range(0, len(body), 301):
                    s.feed(body[i:i + 301])
                s.close()
            except sr.ProtocolError:
                pass
            stop = True
            for t in ts: t.join()
            count[(bi, dec, "runs")] += 1
            if errors:
                count[(bi, dec, "reader-exception")] += 1
                if len(examples) < 6: examples.append((bi, dec, "exc", errors[0]))
            last = s.snapshot()
            if (last.to_dict() if last is not None else None) != final:
                count[(bi, dec, "final-differs")] += 1
                if len(examples) < 6:
                    lt = texts(last.to_dict()) if last is not None else {}
                    diffk = [k for k in set(lt) | set(fin) if lt.get(k) != fin.get(k)]
                    examples.append((bi, dec, "final", [(k, len(lt.get(k, "")), len(fin.get(k, ""))) for k in diffk][:3]))
            for d in got:
                bad = [k for k, v in texts(d).items() if k in fin and not fin[k].startswith(v)]
                if bad:
                    count[(bi, dec, "not-prefix-snapshots")] += 1
                    if len(examples) < 6:
                        k = bad[0]; v = texts(d)[k]; f = fin[k]
                        i = next((j for j in range(min(len(v), len(f))) if v[j] != f[j]), min(len(v), len(f)))
                        examples.append((bi, dec, "notprefix", k, "len", len(v), len(f), "first diff at", i, repr(v[max(0, i - 20):i + 40]), repr(f[max(0, i - 20):i + 40])))
for k in sorted(count): print(k, count[k])
for e in examples: print("EXAMPLE", str(e)[:300])
