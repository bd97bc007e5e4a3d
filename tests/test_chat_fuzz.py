"""Property tests: whatever the bytes, ChatCompletionsStream yields events or raises ProtocolError.

Three sources of input: random bytes, recorded Chat streams with random mutations, and well-framed
streams of JSON objects whose fields hold arbitrary JSON values (wrong types at every depth). In
every case the only exception allowed is ProtocolError, the snapshot stays readable and
serializable, and the result does not depend on how the body was split, nor on the hot paths (the
common-shape path and the shape templates: the general path alone gives the same).
"""

from __future__ import annotations

import json
from typing import Any

from _corpus import load, names
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansio_responses._chat.stream import ChatCompletionsStream
from sansio_responses._errors import ProtocolError

CORPUS = [load(n)[0] for n in names("chat")]

json_scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=5)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


tool_delta = st.fixed_dictionaries(
    {},
    optional={
        "index": st.integers(0, 3),
        "id": st.sampled_from(["call_a", "call_b", ""]),
        "type": st.just("function"),
        "function": st.fixed_dictionaries(
            {}, optional={"name": st.sampled_from(["f", "g"]), "arguments": st.text(max_size=4)}
        ),
        "extra_content": json_values,
    },
)
logprob_entry = st.fixed_dictionaries({"token": st.text(max_size=3), "logprob": st.floats(-5, 0)})
delta = st.fixed_dictionaries(
    {},
    optional={
        "role": st.sampled_from(["assistant", "tool"]),
        "content": st.text(max_size=6),
        "refusal": st.text(max_size=6),
        "reasoning_content": st.text(max_size=6),
        "reasoning": st.text(max_size=6),
        "reasoning_details": st.lists(
            st.dictionaries(st.text(max_size=3), json_values), max_size=2
        ),
        "tool_calls": st.lists(tool_delta, max_size=3),
        "function_call": st.fixed_dictionaries(
            {}, optional={"name": st.text(max_size=2), "arguments": st.text(max_size=2)}
        ),
        "audio": json_values,
    },
)
choice = st.fixed_dictionaries(
    {"index": st.integers(0, 3), "delta": delta},
    optional={
        "finish_reason": st.sampled_from(["stop", "length", "tool_calls"]),
        "logprobs": st.fixed_dictionaries(
            {},
            optional={
                "content": st.lists(logprob_entry, max_size=2),
                "refusal": st.lists(logprob_entry, max_size=2),
            },
        ),
        "content_filter_results": json_values,
    },
)
chunk = st.fixed_dictionaries(
    {"choices": st.lists(choice, max_size=3)},
    optional={
        "id": st.sampled_from(["chatcmpl-1", ""]),
        "object": st.sampled_from(["chat.completion.chunk", ""]),
        "created": st.integers(0, 10),
        "model": st.sampled_from(["m", ""]),
        "usage": st.fixed_dictionaries({}, optional={"total_tokens": st.integers(0, 9)}),
        "system_fingerprint": st.text(max_size=3),
        "service_tier": st.text(max_size=3),
        "prompt_filter_results": json_values,
        "obfuscation": json_values,
        "error": json_values,
    },
)


# Every modelled field, as a path with "*" for "any entry of this array".
FIELD_PATHS = [
    p.split(".")
    for p in """id object created model choices usage system_fingerprint service_tier error
    choices.* choices.*.index choices.*.delta choices.*.finish_reason choices.*.logprobs
    choices.*.logprobs.content choices.*.logprobs.refusal choices.*.logprobs.content.*
    choices.*.delta.role choices.*.delta.content choices.*.delta.refusal
    choices.*.delta.reasoning_content choices.*.delta.reasoning choices.*.delta.reasoning_details
    choices.*.delta.reasoning_details.* choices.*.delta.function_call
    choices.*.delta.function_call.name choices.*.delta.function_call.arguments
    choices.*.delta.tool_calls choices.*.delta.tool_calls.* choices.*.delta.tool_calls.*.index
    choices.*.delta.tool_calls.*.id choices.*.delta.tool_calls.*.type
    choices.*.delta.tool_calls.*.function choices.*.delta.tool_calls.*.function.name
    choices.*.delta.tool_calls.*.function.arguments usage.total_tokens
    usage.prompt_tokens_details""".split()
]


def corrupt(obj: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """Maybe set one modelled field (at any depth, whether present or not) to an arbitrary JSON
    value. A Random drawn from hypothesis picks the field and the array entries: ``sampled_from``
    favours early entries so strongly that deep fields were almost never reached."""
    rng = data.draw(st.randoms(use_true_random=False))
    if rng.random() < 0.3:
        return obj
    *parents, last = rng.choice(FIELD_PATHS)
    node: Any = obj
    for step in parents:
        if step == "*":
            if not isinstance(node, list) or not node:
                return obj
            node = rng.choice(node)
        elif isinstance(node, dict) and step in node:
            node = node[step]
        else:
            return obj
    if isinstance(node, dict):
        node[last] = data.draw(json_values)
    elif isinstance(node, list) and node:
        node[rng.randrange(len(node))] = data.draw(json_values)
    return obj


class _Generic(ChatCompletionsStream):
    """No hot path: no common-shape path, no shape templates (see tests/test_hot_paths.py)."""

    _HOT = False


def feed_all(
    body: bytes, cuts: list[int], strict: bool = False, generic: bool = False
) -> tuple[list[Any], Any, Any]:
    """Feed *body* split at *cuts*; return (events, outcome or exception type, snapshot dict).

    *generic*: through the general path only, which the hot paths must agree with."""
    stream = (_Generic if generic else ChatCompletionsStream)(strict=strict)
    events: list[Any] = []
    pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
    result: Any = None
    try:
        for piece in pieces:
            events.extend(stream.feed(piece))
        events.extend(stream.close())
        result = stream.outcome
    except ProtocolError as exc:
        events.extend(getattr(exc, "events", []))
        result = type(exc)
    snap = stream.snapshot()
    snap_dict = None if snap is None else snap.to_dict()
    json.dumps(snap_dict)
    for event in events:
        json.dumps(event.to_dict() if hasattr(event, "to_dict") else event.data)
    return events, result, snap_dict


def cuts_for(data: st.DataObject, size: int) -> list[int]:
    return sorted(set(data.draw(st.lists(st.integers(0, size), max_size=6))))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.data())
def test_random_bytes(body: bytes, data: st.DataObject) -> None:
    whole = feed_all(body, [])
    assert feed_all(body, cuts_for(data, len(body))) == whole


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(chunk | json_values, max_size=5), st.booleans(), st.booleans(), st.data())
def test_framed_objects_with_wrong_types(
    objs: list[Any], crlf: bool, strict: bool, data: st.DataObject
) -> None:
    datas = [json.dumps(corrupt(o, data) if isinstance(o, dict) else o) for o in objs]
    if data.draw(st.booleans()):
        datas.append("[DONE]")
    sep = "\r\n" if crlf else "\n"
    body = "".join(f"data: {d}{sep}{sep}" for d in datas).encode()
    whole = feed_all(body, [], strict)
    assert feed_all(body, cuts_for(data, len(body)), strict) == whole
    assert feed_all(body, [], strict, generic=True) == whole


TOKENS = [
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b",",
    b":",
    b"null",
    b"1",
    b"-1",
    b'""',
    b"\n",
    b"\n\n",
    b"\r",
]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(CORPUS))), st.data())
def test_mutated_recordings(which: int, data: st.DataObject) -> None:
    body = bytearray(CORPUS[which])
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(body)))
        kind = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        if kind == "insert":
            body[at:at] = data.draw(st.sampled_from(TOKENS))
        elif kind == "delete":
            del body[at : at + data.draw(st.integers(1, 20))]
        else:
            body[at : at + 1] = data.draw(st.binary(min_size=1, max_size=1))
    whole = feed_all(bytes(body), [])
    assert feed_all(bytes(body), cuts_for(data, len(body))) == whole
    assert feed_all(bytes(body), [], generic=True) == whole
