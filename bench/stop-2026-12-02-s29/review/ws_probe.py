# ResponsesConnection.receive with odd 'type' values and odd messages: only ProtocolError allowed.
import json
import sansio_responses as sr
msgs = [
    '{"type": [1]}', '{"type": {}}', '{"type": ["response.created"]}', '{"type": 1}', '{"type": null}', '{}',
    '{"type": 1.5}', '{"type": true}', '{"type": "ping", "x": "\\ud800"}', '{"type": "ping", "x": NaN}',
    '{"type": "response.steer.accepted"}', '{"type": "response.steer.x"}', '{"type": "error"}', '{"type": "error", "error": 5}',
    '{"type": "error", "stream_id": "zz"}', '{"type": "response.created", "stream_id": 5}', '[1]', '"x"', '',
    '{"type": "response.output_text.delta", "stream_id": "a"}',
]
for m in msgs:
    for with_lane in (False, True):
        c = sr.ResponsesConnection()
        if with_lane:
            c.create({"model": "m", "input": "x"}, stream_id="a")
        try:
            r = c.receive(m)
            print("ok   ", with_lane, m, [type(e).__name__ for e in r])
        except sr.ProtocolError as e:
            print("proto", with_lane, m, type(e).__name__, str(e)[:90])
        except Exception as e:
            print("UNTYPED", with_lane, m, type(e).__name__, str(e)[:120])
