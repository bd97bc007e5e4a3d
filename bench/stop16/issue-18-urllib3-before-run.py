import time, sys
sys.path.insert(0, "/work/notes"); sys.modules.pop("urllib3_client_before", None)
import urllib3
import sansio_responses as sr
print(sr.__file__, hasattr(sr, "Exchange"))
from importlib import import_module; events = import_module("issue-18-urllib3-before").events
from sansio_responses.testing import Script, StreamBuilder, recording, serve

pool = urllib3.PoolManager()
background = recording("responses-pydantic-ai-test_background_mode_streaming_starting_after_vcr-1")
with serve(
    Script.error(429, "Rate limit reached", retry_after=0.05),
    Script(background, disconnect_after_events=6, resumes=[Script.error(503, "busy", retry_after=0.05)]),
) as server:
    request = sr.responses_request({"model": "gpt-4o", "input": "What is 2 + 2?", "background": True}, base_url=server.base_url, api_key="sk-test")
    stream = sr.ResponsesStream()
    text = "".join(e.delta for e in events(request, stream, pool, idle=5.0, total=30) if e.type == "response.output_text.delta")
print(repr(text), stream.outcome)
body = StreamBuilder().text("Hello there, friend", 5).completed().to_sse()
t = time.monotonic()
with serve(Script(body, stall_after_events=3, stall_seconds=2)) as server:
    request = sr.responses_request({"model": "gpt-4o", "input": "hi"}, base_url=server.base_url, api_key="sk-test")
    stream = sr.ResponsesStream()
    try:
        for e in events(request, stream, pool, idle=0.2): pass
    except sr.IdleTimeout as exc:
        print("idle", exc, stream.outcome)
print(time.monotonic() - t)
with serve(Script(body, delay=0.1)) as server:
    request = sr.responses_request({"model": "gpt-4o", "input": "hi"}, base_url=server.base_url, api_key="sk-test")
    stream = sr.ResponsesStream()
    try:
        for e in events(request, stream, pool, idle=5, total=0.35): pass
    except sr.TotalTimeout as exc:
        print("total", exc, stream.outcome)
with serve(Script(body, disconnect_after_events=3)) as server:
    request = sr.responses_request({"model": "gpt-4o", "input": "hi"}, base_url=server.base_url, api_key="sk-test")
    stream = sr.ResponsesStream()
    try:
        for e in events(request, stream, pool, idle=5): pass
    except sr.TransportError as exc:
        print("drop", repr(exc), stream.outcome)
stream = sr.ResponsesStream()
try:
    list(events(sr.responses_request({"model": "m", "input": "hi"}, base_url="http://127.0.0.1:9/v1"), stream, pool))
except sr.ConnectError as exc:
    print("connect", exc)
