import sys, json
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from h import check
bodies = {}
for v in ['"boom"', '[1]', 'null', '{}', '{"message": 5}', '{"message": "x", "code": [1]}', '{"message": "\\ud800"}', '1e400', 'true', '{"type": {"a": 1}}']:
    bodies["error=" + v] = ('data: {"error": %s}\n\ndata: [DONE]\n\n' % v).encode()
bodies["error and choices"] = b'data: {"error": {"message": "x"}, "choices": [{"index": 0, "delta": {"content": "a"}}]}\n\n'
bodies["top list"] = b'data: [1,2]\n\n'
bodies["top str"] = b'data: "x"\n\n'
bodies["DONE variants"] = b'data: [DONE] \n\n'
bodies["DONE lower"] = b'data: [done]\n\n'
bodies["DONE json"] = b'data: "[DONE]"\n\n'
bodies["event field"] = b'event: error\ndata: {"message": "x"}\n\n'
bodies["event field2"] = b'event: error\ndata: {"error": {"message": "x"}}\n\n'
bodies["choices null"] = b'data: {"id": "c", "choices": null}\n\n'
bodies["choices obj"] = b'data: {"id": "c", "choices": {"0": {}}}\n\n'
bodies["delta null"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": null}]}\n\n'
bodies["delta list"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": []}]}\n\n'
bodies["tool_calls obj"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": {"index": 0}}}]}\n\n'
bodies["tool_calls null"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": null}}]}\n\n'
bodies["function null"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": null}]}}]}\n\n'
bodies["args num"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": 5}}]}}]}\n\n'
bodies["logprobs weird"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "a"}, "logprobs": {"content": 5}}]}\n\n'
bodies["logprobs list"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "a"}, "logprobs": [1]}]}\n\n'
bodies["usage list"] = b'data: {"id": "c", "choices": [], "usage": [1]}\n\n'
bodies["usage str tokens"] = b'data: {"id": "c", "choices": [], "usage": {"prompt_tokens": "1"}}\n\n'
bodies["reasoning_details obj"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"reasoning_details": {"a": 1}}}]}\n\ndata: {"id": "c", "choices": [{"index": 0, "delta": {"reasoning_details": [1]}}]}\n\n'
bodies["merge types"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"audio": {"id": "a", "data": "x"}}}]}\n\ndata: {"id": "c", "choices": [{"index": 0, "delta": {"audio": "str"}}]}\n\ndata: {"id": "c", "choices": [{"index": 0, "delta": {"audio": {"data": "y"}}}]}\n\n'
bodies["merge deep"] = b'data: {"id": "c", "choices": [{"index": 0, "delta": {"x": ' + b'{"a":' * 200 + b'1' + b'}' * 200 + b'}}]}\n\n' + b'data: {"id": "c", "choices": [{"index": 0, "delta": {"x": ' + b'{"a":' * 200 + b'2' + b'}' * 200 + b'}}]}\n\n'
bodies["id changes"] = b'data: {"id": "a", "choices": []}\n\ndata: {"id": "b", "choices": []}\n\ndata: {"id": "", "model": null, "choices": []}\n\n'
bodies["created float"] = b'data: {"id": "a", "created": 1.5, "choices": []}\n\n'
bodies["index huge"] = b'data: {"id": "a", "choices": [{"index": 18446744073709551616, "delta": {"content": "a"}}]}\n\n'
bad = 0
for name, b in bodies.items():
    for strict in (False, True):
        probs, ref = check(sr.ChatCompletionsStream, b, strict=strict)
        if probs:
            bad += 1
            print("##", name, strict, [repr(p)[:300] for p in probs[:2]])
        elif not strict:
            print("ok", name, (ref["err"] or ("",))[0], (ref["err"] or ("", ""))[1][:90], ref["outcome"], ref["diag"])
print("bad", bad)
