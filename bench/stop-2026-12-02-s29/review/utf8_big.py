# Invalid UTF-8 / odd escapes inside a large terminal event (load_sharing paths) vs a small one.
import sys, json
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from sansio_responses.testing import StreamBuilder
from h import check

def mk(textlen, junk, where="instructions"):
    text = ("héllo wörld " * (textlen // 12 + 1))[:textlen]
    body = StreamBuilder().text(text, chunks=50).completed().to_sse()
    # find completed event and inject junk into a short field
    blocks = body.split(b"\n\n")
    for i, b in enumerate(blocks):
        if b.startswith(b"event: response.completed"):
            blocks[i] = b.replace(b'"instructions":null', b'"instructions":"' + junk + b'"', 1)
            assert blocks[i] != b, "no instructions"
    return b"\n\n".join(blocks), text

for junk in [b"\xff", b"\xe2\x82", b"\xed\xa0\x80", b"ok\\ud800", b"\\u0000", b"NaN", b"\xc0\xaf"]:
    for n in (1000, 70000):
        body, text = mk(n, junk)
        probs, ref = check(sr.ResponsesStream, body)
        snap = ref["snap"]
        ins = snap and snap.get("instructions")
        print(junk, n, "err:", ref["err"] and ref["err"][:2], "instr:", repr(ins)[:40], "text ok:", bool(snap) and snap["output"][0]["content"][0]["text"] == text, "problems:", len(probs), [p[:4] for p in probs[:2]])
