"""The bodies and text extraction of threads_cycles_tmpl.py, for threads_focus.py."""
import random, sys
sys.path.insert(0, "/work/wt-before/bench"); sys.path.insert(0, "/work/notes/review2")
import generate as G
import fuzz_tmpl as F

def texts(d):
    out = {}
    for o in d.get("output") or []:
        for i, c in enumerate(o.get("content") or []):
            out[(o.get("id"), "c", i)] = c.get("text") or c.get("refusal") or ""
        for i, c in enumerate(o.get("summary") or []):
            out[(o.get("id"), "s", i)] = c.get("text") or ""
        if "arguments" in o:
            out[(o.get("id"), "a")] = o["arguments"] or ""
    return out

def bodies_list():
    bodies = [G.generate(n, k, seed=s).data for n in ("text", "reasoning", "function_call", "text_items", "text_logprobs")
              for k, s in ((300, 1), (2000, 2))]
    rng = random.Random(77)
    bodies += [F.body(rng) for _ in range(10)]
    return bodies
