"""Hostile patterns at n, 2n, 4n: time (process) and memory held afterwards (tracemalloc, events
dropped). Usage: lin.py [NAME...]"""
import sys, json, time, tracemalloc, gc
import sansio_responses as sr

def fr(o): return b"data: " + json.dumps(o, separators=(",", ":")).encode() + b"\n\n"
CREATED = fr({"type": "response.created", "sequence_number": 0, "response": {"id": "resp_1", "object": "response", "status": "in_progress"}})
def item(i, seq, id=None):
    return fr({"type": "response.output_item.added", "sequence_number": seq, "output_index": i,
               "item": {"id": id or f"msg_{i}", "type": "message", "role": "assistant", "status": "in_progress", "content": []}})
def part(i, c, seq, id=None):
    return fr({"type": "response.content_part.added", "sequence_number": seq, "output_index": i, "content_index": c, "item_id": id or f"msg_{i}",
               "part": {"type": "output_text", "text": "", "annotations": []}})
def delta(i, c, seq, d="ab", id=None):
    return fr({"type": "response.output_text.delta", "sequence_number": seq, "output_index": i, "content_index": c, "item_id": id or f"msg_{i}", "delta": d})

def p_many_items(n):
    yield CREATED
    s = 1
    for i in range(n):
        yield item(i, s); s += 1
        yield part(i, 0, s); s += 1
        yield delta(i, 0, s); s += 1

def p_many_parts(n):
    yield CREATED; yield item(0, 1)
    s = 2
    for c in range(n):
        yield part(0, c, s); s += 1
        yield delta(0, c, s); s += 1

def p_sparse_parts(n):
    yield CREATED; yield item(0, 1)
    s = 2
    for c in range(n):
        yield part(0, c * 1000003, s); s += 1
        yield delta(0, c * 1000003, s); s += 1

def p_alternate_parts(n):
    yield CREATED; yield item(0, 1); yield part(0, 0, 2); yield part(0, 1, 3)
    s = 4
    for k in range(n):
        yield delta(0, k % 2, s, "a"); s += 1

def p_alternate_items(n):
    yield CREATED
    s = 1
    for i in range(50):
        yield item(i, s); s += 1; yield part(i, 0, s); s += 1
    for k in range(n):
        yield delta(k % 50, 0, s, "a"); s += 1

def p_annotations(n):
    yield CREATED; yield item(0, 1); yield part(0, 0, 2)
    s = 3
    for k in range(n):
        yield fr({"type": "response.output_text.annotation.added", "sequence_number": s, "output_index": 0, "content_index": 0, "item_id": "msg_0",
                  "annotation_index": k * 7919, "annotation": {"type": "url_citation", "url": "u", "start_index": 0, "end_index": 1, "title": "t"}}); s += 1

def p_summary(n):
    yield CREATED
    yield fr({"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"id": "rs_1", "type": "reasoning", "summary": []}})
    s = 2
    for k in range(n):
        yield fr({"type": "response.reasoning_summary_part.added", "sequence_number": s, "output_index": 0, "item_id": "rs_1", "summary_index": k * 1009, "part": {"type": "summary_text", "text": ""}}); s += 1
        yield fr({"type": "response.reasoning_summary_text.delta", "sequence_number": s, "output_index": 0, "item_id": "rs_1", "summary_index": k * 1009, "delta": "xy"}); s += 1

def p_orphans(n):
    yield CREATED
    for k in range(n):
        yield delta(k, 0, k + 1)

def p_replace_item(n):
    yield CREATED
    s = 1
    big = "z" * 200
    for k in range(n):
        yield fr({"type": "response.output_item.done", "sequence_number": s, "output_index": 0,
                  "item": {"id": "msg_0", "type": "message", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": big + str(k), "annotations": []}]}}); s += 1

def p_desc_seq(n):
    yield CREATED; yield item(0, 1); yield part(0, 0, 2)
    for k in range(n):
        yield delta(0, 0, 3 + n - k, "a")

def p_dup_seq(n):
    yield CREATED; yield item(0, 1); yield part(0, 0, 2)
    for k in range(n):
        yield delta(0, 0, 3, "a")

def p_unknown_big(n):
    yield CREATED
    for k in range(n):
        yield fr({"type": "vendor.blob", "sequence_number": k + 1, "x": "q" * 300})

def p_after_terminal(n):
    yield CREATED
    yield fr({"type": "response.completed", "sequence_number": 1, "response": {"id": "resp_1", "object": "response", "status": "completed", "output": []}})
    for k in range(n):
        yield delta(0, 0, k + 2, "abc")

def p_id_mismatch(n):
    yield CREATED
    s = 1
    for i in range(40):
        yield item(i, s); s += 1; yield part(i, 0, s); s += 1
    for k in range(n):
        yield delta(k % 40, 0, s, "a", id=f"msg_{(k + 1) % 40}"); s += 1

def p_logprobs(n):
    yield CREATED; yield item(0, 1); yield part(0, 0, 2)
    for k in range(n):
        yield fr({"type": "response.output_text.delta", "sequence_number": 3 + k, "output_index": 0, "content_index": 0, "item_id": "msg_0", "delta": "a",
                  "logprobs": [{"token": "a", "logprob": -0.1, "bytes": [97], "top_logprobs": [{"token": "b", "logprob": -2.0, "bytes": [98]}] * 3}]})

def chat_fr(choices, **kw):
    d = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": choices}; d.update(kw)
    return fr(d)

def c_alt_choices(n):
    for k in range(n):
        yield chat_fr([{"index": k % 128, "delta": {"content": "a"}, "finish_reason": None}])

def c_alt_tools(n):
    yield chat_fr([{"index": 0, "delta": {"tool_calls": [{"index": t, "id": f"call_{t}", "type": "function", "function": {"name": "f", "arguments": ""}} for t in range(1024)]}, "finish_reason": None}])
    for k in range(n):
        yield chat_fr([{"index": 0, "delta": {"tool_calls": [{"index": k % 1024, "function": {"arguments": "a"}}]}, "finish_reason": None}])

def c_many_in_chunk(n):
    # each chunk lists 128 choices of one char each
    for k in range(n // 128 + 1):
        yield chat_fr([{"index": i, "delta": {"content": "a"}, "finish_reason": None} for i in range(128)])

def c_sparse_choice(n):
    for k in range(n):
        yield chat_fr([{"index": (k % 128) * 10**12, "delta": {"content": "ab"}, "finish_reason": None}])

def c_logprobs(n):
    for k in range(n):
        yield chat_fr([{"index": 0, "delta": {"content": "a"}, "logprobs": {"content": [{"token": "a", "logprob": -0.1, "bytes": [97], "top_logprobs": []}]}, "finish_reason": None}])

def c_extra_fields(n):
    for k in range(n):
        yield chat_fr([{"index": 0, "delta": {"content": "a", f"v{k % 3}": "x"}, "finish_reason": None}], **{f"top{k % 5}": k})

PATTERNS = {k: v for k, v in globals().items() if k.startswith(("p_", "c_"))}

def run(name, n, events):
    gen = PATTERNS[name]
    body = b"".join(gen(n))
    cls = sr.ChatCompletionsStream if name.startswith("c_") else sr.ResponsesStream
    gc.collect()
    tracemalloc.start()
    t = time.process_time()
    kw = {} if name.startswith("c_") else {"max_output_items": None if "items" in name else 10000}
    s = cls(events=events, max_diagnostics=100, **kw)
    err = None
    try:
        for i in range(0, len(body), 65536):
            s.feed(body[i:i + 65536])
        s.close()
    except sr.ProtocolError as e:
        err = type(e).__name__ + ": " + str(e)[:80]
    dt = time.process_time() - t
    gc.collect()
    held = tracemalloc.get_traced_memory()[0]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del s
    return len(body), dt, held, peak, err

names = sys.argv[1:] or list(PATTERNS)
base = 4000
for name in names:
    for events in (True, False):
        rows = []
        for n in (base, 2 * base, 4 * base):
            rows.append(run(name, n, events))
        ratios_t = [rows[i + 1][1] / max(rows[i][1], 1e-6) for i in range(2)]
        ratios_m = [rows[i + 1][2] / max(rows[i][2], 1) for i in range(2)]
        flag = " <-- superlinear?" if max(ratios_t) > 2.8 or max(ratios_m) > 2.8 else ""
        print(f"{name:20s} ev={events!s:5s} bytes={rows[-1][0]:9d} t={[round(r[1],3) for r in rows]} x{[round(x,2) for x in ratios_t]} held={[r[2] for r in rows]} peak/B={rows[-1][3]/rows[-1][0]:.2f} held/B={rows[-1][2]/rows[-1][0]:.2f} {rows[-1][4] or ''}{flag}", flush=True)
