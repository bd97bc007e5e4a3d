# Deeply nested function-call arguments: .parsed of a delta, Chat helpers, parse_json_text, PartialJSON
import sys, json, tracemalloc, time
import sansio_responses as sr
from sansio_responses.testing import StreamBuilder, ChatStreamBuilder
for depth in (1000, 5000, 100000):
    args = "[" * depth
    body = StreamBuilder().function_call("f", args, deltas=3).completed().to_sse()
    s = sr.ResponsesStream()
    try:
        evs = s.feed(body); evs += s.close()
        d = [e for e in evs if e.type == "response.function_call_arguments.delta"]
        try:
            p = d[-1].parsed
            print("resp", depth, "parsed ok", type(p).__name__)
        except Exception as e:
            print("resp", depth, "parsed raised", type(e).__name__, str(e)[:150], isinstance(e, sr.ProtocolError))
    except Exception as e:
        print("resp", depth, "feed raised", type(e).__name__, str(e)[:150])
    body = ChatStreamBuilder().tool_call("g", args, deltas=3).finish("tool_calls").to_sse()
    c = sr.ChatCompletionsStream()
    try:
        chunks = c.feed(body); chunks += c.close()
        for fn in ("parsed_tool_arguments",):
            try:
                r = getattr(c, fn)()
                print("chat", depth, fn, "ok", repr(r)[:80])
            except Exception as e:
                print("chat", depth, fn, "raised", type(e).__name__, str(e)[:150], isinstance(e, sr.ProtocolError))
        for ch in chunks[-3:]:
            try:
                r = ch.tool_arguments_parsed(0, 0)
                print("chat", depth, "tool_arguments_parsed ok", type(r).__name__)
            except Exception as e:
                print("chat", depth, "tap raised", type(e).__name__, str(e)[:150], isinstance(e, sr.ProtocolError))
    except Exception as e:
        print("chat", depth, "feed raised", type(e).__name__, str(e)[:150])
    for fn in ("parse_json_text",):
        try:
            r = sr.parse_json_text(args); print("parse_json_text", depth, "ok", type(r).__name__)
        except Exception as e:
            print("parse_json_text", depth, "raised", type(e).__name__, str(e)[:150], isinstance(e, sr.ProtocolError))
    try:
        pj = sr.PartialJSON(); pj.feed(args); v = pj.value(); print("PartialJSON", depth, "ok", type(v).__name__)
    except Exception as e:
        print("PartialJSON", depth, "raised", type(e).__name__, str(e)[:150], isinstance(e, sr.ProtocolError))
