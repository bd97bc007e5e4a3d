# max_nesting_depth=None: events nested as deep as the decoder allows; repr/==/to_dict/copy/pickle
import copy, pickle, json, sys
import sansio_responses as sr
for loads in (None, json.loads):
    for depth in (900, 1000):
        data = '{"type":"vendor.x","sequence_number":0,"v":' + "[" * depth + "]" * depth + "}"
        s = sr.ResponsesStream(max_nesting_depth=None, **({} if loads is None else {"json_loads": loads}))
        try:
            (ev,) = s.feed(b"data: " + data.encode() + b"\n\n")
        except Exception as e:
            print(loads, depth, "feed", type(e).__name__, str(e)[:80]); continue
        for name, f in (("repr", repr), ("eq", lambda e: e == copy.copy(e)), ("to_dict", lambda e: e.to_dict()), ("deepcopy", copy.deepcopy),
                        ("pickle", lambda e: pickle.loads(pickle.dumps(e))), ("snapshot", lambda e: s.snapshot())):
            try:
                f(ev); r = "ok"
            except Exception as e:
                r = f"{type(e).__name__}: {str(e)[:60]}"
            print("orjson" if loads is None else "json", depth, name, r)
