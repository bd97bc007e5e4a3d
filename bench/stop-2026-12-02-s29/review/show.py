import sys, json, random
sys.path.insert(0, "/work/notes/review4")
import sansio_responses as sr
from h import digest
body = open(sys.argv[1], "rb").read()
cls = sr.ChatCompletionsStream if "chat" in sys.argv[1] else sr.ResponsesStream
for loads in (None, json.loads):
    for ev in (True, False):
        for name, ch in (("whole", [body]), ("bytes", [body[i:i+1] for i in range(len(body))])):
            d = digest(cls, body, ch, ev, loads, "strict" in sys.argv)
            print(loads and "json" or "orjson", ev, name, d["err"], d["outcome"], d["diag"])
