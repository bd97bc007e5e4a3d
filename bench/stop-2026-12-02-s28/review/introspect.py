"""Introspection of the models' from_dict, NEW vs OLD: docstring, signature, qualname, module,
source availability (inspect.getsource), traceback lines of an error raised inside it; before and
after the first call."""
import inspect, sys, traceback
sys.path.insert(0, "/work/notes/review3")
from dual import N, B, sub, norm


def info(M, when):
    R = M.Response
    f = R.from_dict
    out = {"doc": (f.__doc__ or "")[:60], "sig": str(inspect.signature(f)), "qualname": f.__qualname__,
           "module": getattr(f, "__module__", None)}
    try:
        inspect.getsource(f); out["source"] = "ok"
    except Exception as e:
        out["source"] = type(e).__name__
    try:
        R.from_dict({"id": 5})
    except Exception as e:
        tb = traceback.format_exception(e)
        out["tb_last_frames"] = [norm(x.strip().splitlines()[0]) + (" | " + x.strip().splitlines()[1].strip() if len(x.strip().splitlines()) > 1 else "") for x in tb[-3:-1]]
    return out


for when in ("before first call", "after first call"):
    if when == "after first call":
        N.Response.from_dict({}); B.Response.from_dict({})
    a, b = info(N, when), info(B, when)
    print(when)
    for k in a:
        print(f"  {k:15} old={b[k]!r}\n  {'':15} new={a[k]!r}")
print("help() text of from_dict, new:", repr(inspect.getdoc(N.ResponseOutputMessage.from_dict))[:80])
print("help() text of from_dict, old:", repr(inspect.getdoc(B.ResponseOutputMessage.from_dict))[:80])
