import sys, json
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from h import check

def chunk(choices, **kw):
    d = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": choices}
    d.update(kw)
    return d

def body(*chunks, done=True, raw=()):
    out = b""
    for c in chunks:
        out += b"data: " + (c if isinstance(c, bytes) else json.dumps(c).encode()) + b"\n\n"
    if done:
        out += b"data: [DONE]\n\n"
    return out

def ch(i, delta, fr=None, **kw):
    d = {"index": i, "delta": delta, "finish_reason": fr}; d.update(kw); return d

cases = {}
for idx in [0, 5, 127, 128, 10**6, 2**63-1, -1, True, 1.0, "0", None, 2**64-1]:
    cases[f"choice idx {idx!r}"] = body(chunk([ch(idx, {"role": "assistant", "content": "a"})]), chunk([ch(idx, {"content": "b"}, "stop")]))
for idx in [0, 1023, 1024, 10**9, -1, True, 1.0, "0", None]:
    cases[f"tool idx {idx!r}"] = body(chunk([ch(0, {"tool_calls": [{"index": idx, "id": "t", "type": "function", "function": {"name": "f", "arguments": "{"}}]})]),
                                      chunk([ch(0, {"tool_calls": [{"index": idx, "function": {"arguments": "}"}}]}, "tool_calls")]))
cases["two tools same idx in one chunk"] = body(chunk([ch(0, {"tool_calls": [{"index": 0, "id": "t", "type": "function", "function": {"name": "f", "arguments": "{"}}, {"index": 0, "function": {"arguments": "}"}}]})]))
cases["same choice twice in one chunk"] = body(chunk([ch(0, {"content": "a"}), ch(0, {"content": "b"})]))
cases["content then null content"] = body(chunk([ch(0, {"content": "a"})]), chunk([ch(0, {"content": None})]), chunk([ch(0, {"content": "b"})]))
cases["refusal+content"] = body(chunk([ch(0, {"content": "a", "refusal": "r"})]), chunk([ch(0, {"refusal": "s"})]))
cases["after DONE"] = body(chunk([ch(0, {"content": "a"})])) + body(chunk([ch(0, {"content": "b"})]))
cases["error then chunk"] = body(b'{"error": {"message": "x"}}', chunk([ch(0, {"content": "b"})]))
cases["dup keys content"] = body(b'{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a","content":"b"},"finish_reason":null}]}')
cases["dup keys choices"] = body(b'{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}],"choices":[{"index":0,"delta":{"content":"z"},"finish_reason":null}]}')
cases["dup keys index"] = body(chunk([ch(0, {"content": "a"})]), b'{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"index":1,"delta":{"content":"a"},"finish_reason":null}]}')
cases["escapes vary"] = body(chunk([ch(0, {"content": "a/"})]), b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"\\u0062\\/"},"finish_reason":null}]}',
   b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"\\ud83d\\ude00"},"finish_reason":null}]}',
   b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"\\ud83d"},"finish_reason":null}]}',
   b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"\\ude00\\u0000"},"finish_reason":null}]}')
# same shape repeated (template path), then variant with spaces / escapes / key order
base = [chunk([ch(0, {"content": "x%d" % i})], obfuscation="abc") for i in range(12)]
var = [b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q\\"r"},"finish_reason":null}],"obfuscation":"abc"}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q"},"finish_reason":null}],"obfuscation":"abc","obfuscation":"z"}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q","content":"w"},"finish_reason":null}],"obfuscation":"abc"}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q"},"finish_reason":null}],"obfuscation":"abc"} ',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"\\ud800"},"finish_reason":null}],"obfuscation":"abc"}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q\x01"},"finish_reason":null}],"obfuscation":"abc"}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q"},"finish_reason":null}],"obfuscation":"abc"}x',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q"},"finish_reason":null}],"obfuscation":"ab\\u0063"}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q"},"finish_reason":null}],"obfuscation":NaN}',
       b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"q"},"finish_reason":null}],"obfuscation":"abc"',
       ]
for j, v in enumerate(var):
    cases[f"template variant {j}"] = body(*base, v, *base[:2])
for tool_variant in range(3):
    tb = [chunk([ch(0, {"tool_calls": [{"index": 0, "id": "t", "type": "function", "function": {"name": "f", "arguments": ""}}]})])]
    tb += [chunk([ch(0, {"tool_calls": [{"index": 0, "function": {"arguments": "a%d" % i}}]})]) for i in range(12)]
    v = [b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"z","arguments":"y"}}]},"finish_reason":null}]}',
         b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"z"}},{"index":0,"function":{"arguments":"w"}}]},"finish_reason":null}]}',
         b'{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"z"}}]},"finish_reason":null}]}'][tool_variant]
    cases[f"tool template variant {tool_variant}"] = body(*tb, v, *tb[1:3])

bad = 0
for name, b in cases.items():
    for strict in (False, True):
        probs, ref = check(sr.ChatCompletionsStream, b, strict=strict)
        if probs:
            bad += 1
            print("##", name, "strict" if strict else "", [repr(p)[:600] for p in probs[:3]])
        elif "-v" in sys.argv:
            print("ok", name, strict, ref["err"] and ref["err"][:2], ref["outcome"], ref["diag"])
print("cases", len(cases), "bad", bad)
