"""SSEDecoder (NEW tree) against an independent whole-body reference of WHATWG HTML §9.2.5-9.2.6
(plus the library's documented deviations: retry values of more than 10 significant digits are
ignored; ServerSentEvent.retry is the last valid retry of its own block).
Usage: sse_ref.py SEED N   (bodies from sse_fuzz.gen_body; chunkings from sse_fuzz.chunkings)"""
import random, re, sys
sys.path.insert(0, "/work/notes/review3")
import sse_fuzz as F
from dual import N, sub

Dec = sub(N, "_sse").SSEDecoder


def ref(body):
    if body.startswith(b"\xef\xbb\xbf"):
        body = body[3:]
    pieces = re.split(rb"\r\n|\r|\n", body)
    complete, tail = pieces[:-1], pieces[-1]
    st = {"data": None, "etype": "", "id": "", "retry": None, "recon": None, "last": ""}
    events = []

    def line(ln, out):
        if ln == b"":
            st["last"] = st["id"]
            if st["data"] is not None:
                data = st["data"]
                out.append((st["etype"] or "message", data.decode("utf-8", "replace"), st["id"], st["retry"]))
            st["data"] = None; st["etype"] = ""; st["retry"] = None
            return
        if ln[:1] == b":":
            return
        if b":" in ln:
            name, _, value = ln.partition(b":")
            if value[:1] == b" ":
                value = value[1:]
        else:
            name, value = ln, b""
        if name == b"data":
            st["data"] = value if st["data"] is None else st["data"] + b"\n" + value
        elif name == b"event":
            st["etype"] = value.decode("utf-8", "replace")
        elif name == b"id":
            if b"\x00" not in value:
                st["id"] = value.decode("utf-8", "replace")
        elif name == b"retry":
            if value.isdigit() and len(value.lstrip(b"0")) <= 10:
                st["retry"] = st["recon"] = int(value)

    for ln in complete:
        line(ln, events)
    last, recon = st["last"], st["recon"]
    disc = []
    if tail:
        line(tail, [])
    line(b"", disc)
    return events, last, recon, (disc[0] if disc else None)


def main():
    seed, n = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    runs = bad = 0
    for b in range(n):
        body, _ = F.gen_body(rng, False)
        exp = ref(body)
        for cname, parts in F.chunkings(rng, body):
            d = Dec(max_event_size=None)
            got = []
            for p in parts:
                got += [(e.event, e.data, e.id, e.retry) for e in d.feed(p)]
            last, recon = d.last_event_id, d.reconnection_time
            d.close()
            ds = d.discarded
            res = (got, last, recon, None if ds is None else (ds.event, ds.data, ds.id, ds.retry))
            runs += 1
            if res != exp:
                bad += 1
                if bad <= 5:
                    print("MISMATCH body", b, cname, repr(body)[:300])
                    for i, (x, y) in enumerate(zip(res, exp)):
                        if x != y:
                            print("  field", i, "\n   got", repr(x)[:400], "\n   ref", repr(y)[:400])
    print(f"sse_ref seed={seed} bodies={n} runs={runs} mismatches={bad}")


if __name__ == "__main__":
    main()
