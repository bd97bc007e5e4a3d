# WS2: several server messages in one socket read; a later one breaks a rule. The events of the
# earlier messages of that read never reach the consumer (the exception leaves Framing.receive
# before the adapter appends them to its ready queue), though the lane's stream applied them.
import json, sys
sys.path.insert(0, "/work/wt-review")
import wsproto, wsproto.events as ws
import sansio_responses as sr
from sansio_responses.testing import StreamBuilder
from adapters._ws_framing import Framing, websocket_request

conn = sr.ResponsesConnection()
req = websocket_request("http://127.0.0.1:1/v1", "sk-x", None, None, None)
fr = Framing(req, conn)
server = wsproto.WSConnection(wsproto.ConnectionType.SERVER)
server.receive_data(fr.handshake())
for e in server.events():
    if isinstance(e, ws.Request):
        accept = server.send(ws.AcceptConnection())
assert fr.accepted(accept)
conn.create({"model": "m", "input": "x"}, stream_id="a")
events = StreamBuilder(response_id="resp_1").text("Hello", 2).completed().events()
good = [json.dumps({**e, "stream_id": "a"}) for e in events[:4]]
bad = json.dumps({"type": "response.output_text.delta", "stream_id": "ghost", "sequence_number": 9})
data = b"".join(server.send(ws.Message(data=m)) for m in good + [bad])
try:
    got, reply = fr.receive(data)
    print("events", [e.type for e in got])
except sr.ProtocolError as exc:
    print("raised", type(exc).__name__, str(exc)[:80])
    print("events carried by the error:", [e.type for e in getattr(exc, "events", [])])
print("the lane's stream applied", conn.stream("a").last_sequence_number, "events' worth; snapshot status", conn.stream("a").snapshot().status)
