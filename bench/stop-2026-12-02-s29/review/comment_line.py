# An endless comment line (no LF) / an endless field name / an endless unknown field: held bytes?
import tracemalloc, sansio_responses as sr
for name, head in (("comment", b": "), ("unknown field", b"foo: "), ("field name", b"x"), ("event field", b"event: "), ("id field", b"id: "), ("retry", b"retry: ")):
    for cls in (sr.ResponsesStream, sr.ChatCompletionsStream, sr.SSEDecoder):
        s = cls(max_event_size=1 << 20)
        tracemalloc.start()
        err = None
        try:
            s.feed(head) if cls is not sr.SSEDecoder else s.feed(head)
            for _ in range(40):
                s.feed(b"x" * (1 << 20))
        except sr.ProtocolError as e:
            err = type(e).__name__
        cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{name:14s} {cls.__name__:22s} held={cur/1e6:7.2f} MB peak={peak/1e6:7.2f} MB error={err}")
