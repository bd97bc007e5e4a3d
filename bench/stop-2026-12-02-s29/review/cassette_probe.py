# load_cassette on malformed cassettes: only CassetteError (a ValueError) expected
import json, os, tempfile
from sansio_responses.testing import load_cassette
CassetteError = __import__("sansio_responses.testing", fromlist=["CassetteError"]).CassetteError
def vcr(body=None, status=200, headers=None, chunks=None, req=None):
    resp = {"status": {"code": status, "message": "OK"}, "headers": headers or {"content-type": ["text/event-stream"]}, "body": {"string": body if body is not None else "data: [DONE]\n\n"}}
    if chunks is not None: resp["chunks"] = chunks
    return {"interactions": [{"request": req or {"method": "POST", "uri": "http://x/v1/responses", "body": "{}", "headers": {}}, "response": resp}], "version": 1}
cases = {
  "lone surrogate body": json.dumps(vcr("data: \ud800\n\n")),
  "lone low surrogate body (escape range)": json.dumps(vcr("data: \udc80\n\n")),
  "surrogate in request body": json.dumps(vcr(req={"method": "POST", "uri": "u", "body": "\ud800"})),
  "chunk at NaN": json.dumps(vcr(chunks=[{"size": 14, "at": float("nan")}])),
  "chunk at inf": json.dumps(vcr(chunks=[{"size": 14, "at": float("inf")}])),
  "status huge": json.dumps(vcr(status=10**30)),
  "status negative": json.dumps(vcr(status=-5)),
  "status str digits": json.dumps(vcr(status="٢٠٠")),
  "headers list of list": json.dumps(vcr(headers={"content-encoding": [["gzip"]]})),
  "content-encoding gzip bad": json.dumps(vcr(body="\x1f\x8b\x08garbage", headers={"content-encoding": ["gzip"]})),
  "content-encoding unknown": json.dumps(vcr(headers={"content-encoding": ["zstd"]})),
  "content-encoding many": json.dumps(vcr(headers={"content-encoding": ["gzip, " * 1000 + "gzip"]})),
  "har bad": json.dumps({"log": {"entries": [{"request": {}, "response": {"status": 200, "content": {"text": "\ud800", "encoding": "base64"}}}]}}),
  "har text surrogate": json.dumps({"log": {"entries": [{"request": {"method": "GET", "url": "u"}, "response": {"status": 200, "headers": [], "content": {"text": "\ud800"}}}]}}),
  "har base64 junk": json.dumps({"log": {"entries": [{"request": {"method": "GET", "url": "u"}, "response": {"status": 200, "headers": [], "content": {"text": "@@@", "encoding": "base64"}}}]}}),
  "har status str": json.dumps({"log": {"entries": [{"request": {"method": "GET", "url": "u"}, "response": {"status": "x", "headers": [], "content": {"text": ""}}}]}}),
  "har entries not list": json.dumps({"log": {"entries": 5}}),
  "har entry null": json.dumps({"log": {"entries": [None]}}),
  "har headers dict": json.dumps({"log": {"entries": [{"request": {"method": "GET", "url": "u", "headers": {"a": 1}}, "response": {"status": 200, "headers": {"a": "b"}, "content": {"text": ""}}}]}}),
  "har content null": json.dumps({"log": {"entries": [{"request": {"method": "GET", "url": "u"}, "response": {"status": 200, "headers": [], "content": None}}]}}),
  "ruby": json.dumps({"http_interactions": [{"request": {"method": "post", "uri": "u"}, "response": {"status": {"code": 200}, "headers": {}, "body": {"base64_string": 5}}}]}),
  "ruby body str surrogate": json.dumps({"http_interactions": [{"request": {"method": "post", "uri": "u"}, "response": {"status": {"code": 200}, "headers": {}, "body": {"string": "\ud800"}}}]}),
  "deep json": "[" * 100000 + "]" * 100000,
  "deep json obj": '{"interactions":' + "[" * 100000 + "]" * 100000 + "}",
  "not utf8": b"\xff\xfe{",
  "yaml tag": "interactions: !!python/object:os.system {}\n",
  "yaml deep": "interactions: " + "[" * 5000 + "]" * 5000 + "\n",
  "yaml binary bad": "interactions:\n- request: {method: POST, uri: u}\n  response:\n    status: {code: 200}\n    body: {string: !!binary '@@@'}\n",
  "yaml int keys": "interactions:\n- request: {method: POST, uri: u, headers: {1: [2]}}\n  response:\n    status: {code: 200}\n    headers: {null: [x]}\n    body: {string: ''}\n",
  "yaml dates": "interactions:\n- request: {method: POST, uri: u}\n  response:\n    status: {code: 200}\n    body: {string: 2020-01-01}\n",
}
for name, text in cases.items():
    fd, p = tempfile.mkstemp(suffix=".json")
    os.write(fd, text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")); os.close(fd)
    try:
        r = load_cassette(p)
        print("ok     ", name, [(x.status, len(x.body), getattr(x, "arrival", None)) for x in r][:2])
    except CassetteError as e:
        print("cerr   ", name, str(e)[-90:])
    except Exception as e:
        print("UNTYPED", name, type(e).__name__, str(e)[:150])
    os.unlink(p)
