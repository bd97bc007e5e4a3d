"""Exhaustive odd values at EVERY path of a few large Response objects (the largest `response` of
the recordings, and one holding every item/part/annotation type seen plus usage/error/
incomplete_details), NEW vs OLD: Response.from_dict and parse_event of a response.completed event.
Each path: every ODD value, deletion, the dict as each Mapping wrapper, the list as tuple/list
subclass. Usage: exhaustive.py [MAXPATHS]"""
import sys
sys.path.insert(0, "/work/notes/review3")
import model_fuzz as MF

by_type, by_key = MF.collect_corpus()
resps = sorted((r for r in by_key["response"] if isinstance(r, dict)), key=lambda r: -len(repr(r)))[:2]
allr = dict(resps[0])
items = [x for t in MF.MN.OUTPUT_ITEM_TYPES for x in by_type.get(t, [])[:1]]
parts = [x for t in ("output_text", "refusal", "reasoning_text", "summary_text") for x in by_type.get(t, [])[:1]]
anns = [x for t in ("file_citation", "url_citation", "container_file_citation", "file_path") for x in by_type.get(t, [])[:1]]
allr["output"] = items + [{"type": "message", "id": "m", "content": parts + [{"type": "output_text", "text": "t", "annotations": anns}]},
                          {"type": "zz_unknown_item", "x": 1}]
allr["usage"] = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 1},
                 "output_tokens": 1, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
allr["error"] = {"code": "c", "message": "m", "param": None, "type": "t"}
allr["incomplete_details"] = {"reason": "r"}
bases = [allr] + resps
maxp = int(sys.argv[1]) if len(sys.argv) > 1 else 10**9


def paths(o, pre=()):
    if isinstance(o, dict):
        for k, v in o.items():
            yield pre + (k,); yield from paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield pre + (i,); yield from paths(v, pre + (i,))


runs = diffs = 0


def cmp(label, d):
    global runs, diffs
    for fa, fb, wrap in ((MF.CN["Response"].from_dict, MF.CB["Response"].from_dict, lambda x: x),
                         (MF.EN.parse_event, MF.EB.parse_event, lambda x: {"type": "response.completed", "sequence_number": 9, "response": x})):
        ra, rb = MF.call(fa, wrap(MF.dcopy(d))), MF.call(fb, wrap(MF.dcopy(d)))
        runs += 1
        if ra != rb:
            diffs += 1
            if diffs <= 8:
                print("DIFF", label, "\n  new", repr(ra)[:400], "\n  old", repr(rb)[:400])


for bi, base in enumerate(bases):
    ps = list(paths(base))[:maxp]
    for p in ps:
        def at(d):
            t = d
            for k in p[:-1]:
                t = t[k]
            return t
        for v in MF.ODD:
            d = MF.dcopy(base); at(d)[p[-1]] = MF.dcopy(v); cmp(f"base{bi} {p} = {v!r}", d)
        d = MF.dcopy(base); t = at(d)
        if isinstance(t, dict):
            del t[p[-1]]; cmp(f"base{bi} del {p}", d)
        d = MF.dcopy(base); t = at(d); cur = t[p[-1]]
        if isinstance(cur, dict):
            for how in ("ordered", "proxy", "custom", "user", "mydict"):
                d = MF.dcopy(base); t = at(d); t[p[-1]] = MF.wrap_mapping(t[p[-1]], how); cmp(f"base{bi} {p} as {how}", d)
        elif isinstance(cur, list):
            d = MF.dcopy(base); t = at(d); t[p[-1]] = tuple(t[p[-1]]); cmp(f"base{bi} {p} as tuple", d)
            d = MF.dcopy(base); t = at(d); t[p[-1]] = MF.MyList(t[p[-1]]); cmp(f"base{bi} {p} as MyList", d)
    for how in ("ordered", "proxy", "custom", "user", "mydict"):
        cmp(f"base{bi} root as {how}", MF.wrap_mapping(MF.dcopy(base), how))
    print(f"base {bi}: {len(ps)} paths", flush=True)
print(f"exhaustive runs={runs} differ={diffs}")
