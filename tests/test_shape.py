"""Shape templates (sansio_responses._chat.shape) and the Chat stream's templated path.

A template reads a chunk that repeats an earlier one's text but for its content and obfuscation
strings, without the JSON decoder and without checking the chunk's shape again. It must never
change a result: whatever the bytes, the stream gives exactly what it gives with templates (and
the other hot paths) turned off, and what ``json.loads`` gives for the wire dicts.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest
from _corpus import load, names
from hypothesis import given, settings
from hypothesis import strategies as st
from test_hot_paths import CHAT_BASE, _chat_run, _GenericChat

import sansio_responses as sr
from sansio_responses._chat.shape import learn, match


def _flat(template: dict[str, Any], key: str, value: str, _: None = None) -> dict[str, Any]:
    d = dict(template)
    d[key] = value
    return d


def _nested(template: dict[str, Any], content: str, obf: str | None = None) -> dict[str, Any]:
    d = json.loads(json.dumps(template))
    d["choices"][0]["delta"]["content"] = content
    if obf is not None:
        d["obfuscation"] = obf
    return d


CHUNK = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"content": "ab"}, "logprobs": None}])


# -- learn and match ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dumps",
    [
        partial(json.dumps, separators=(",", ":")),  # the OpenAI API's form
        json.dumps,  # ", " and ": " (Python servers)
        partial(json.dumps, indent=1),  # line ends and indents inside the object
        partial(json.dumps, ensure_ascii=False),
    ],
)
def test_a_template_reads_what_json_loads_reads(dumps: Any) -> None:
    text = dumps(CHUNK)
    t = learn(text, ("content", "obfuscation"), ("ab", "xyz"), partial(_nested, CHUNK), json.loads)
    assert t is not None
    for content in ["", "x", 'quote " and \\ backslash', "é\u2028😀", "\n\t\x00", "\ud800"]:
        for obf in ["", "Q9"]:
            other = dumps(_nested(CHUNK, content, obf))
            assert match(t, other) == (content, obf)
            assert t.build(content, obf) == json.loads(other)


def test_the_strings_may_come_in_either_order() -> None:
    chunk = {"obfuscation": "xyz", **CHUNK}  # the padding first in the text
    text = json.dumps(chunk)
    assert text.index("obfuscation") < text.index("content")
    t = learn(text, ("content", "obfuscation"), ("ab", "xyz"), partial(_nested, chunk), json.loads)
    assert t is not None and t.swapped
    other = json.dumps(_nested(chunk, "new", "pad"))
    assert match(t, other) == ("new", "pad")


def test_one_string() -> None:
    chunk = {k: v for k, v in CHUNK.items() if k != "obfuscation"}
    text = json.dumps(chunk)
    t = learn(text, ("content",), ("ab",), partial(_nested, chunk), json.loads)
    assert t is not None and t.mid is None
    assert match(t, json.dumps(_nested(chunk, "zz"))) == ("zz", None)


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s + " ",  # trailing whitespace: valid JSON, but not the template's text
        lambda s: " " + s,
        lambda s: s[:-1],  # truncated
        lambda s: s + "}",
        lambda s: s.replace('"content": "', '"content": "\x01'),  # a raw control character
        lambda s: s.replace('"content": "', '"content": "\\x'),  # an invalid escape
        lambda s: s.replace('"content": "ab"', '"content": "ab\\"'),  # unterminated
        lambda s: s.replace('"model": "gpt-5-mini"', '"model": "gpt-5-mino"'),
        lambda s: s.replace('"content": "ab"', '"content": "ab", "role": "x"'),
        lambda s: s.replace('"content": "ab"', '"content": 12'),
        lambda s: s.replace('"obfuscation": "xyz"', '"obfuscation": null'),
    ],
)
def test_any_other_text_does_not_match(edit: Any) -> None:
    text = json.dumps(CHUNK)
    t = learn(text, ("content", "obfuscation"), ("ab", "xyz"), partial(_nested, CHUNK), json.loads)
    assert t is not None
    edited = edit(text)
    assert edited != text
    assert match(t, edited) is None


def test_the_probe_refuses_a_template_that_finds_the_wrong_member() -> None:
    # The last "content" member is not the delta's: a text search alone would take it.
    chunk = dict(CHUNK, vendor={"content": "ab"})
    text = json.dumps(chunk)
    assert learn(text, ("content",), ("ab",), partial(_nested, chunk), json.loads) is None
    # A key that appears twice: the decoder keeps the last one, and so does the template.
    text = '{"a": 1, "content": "x", "content": "ab"}'
    t = learn(
        text, ("content",), ("ab",), partial(_flat, {"a": 1, "content": ""}, "content"), json.loads
    )
    assert t is not None
    assert t.build(*match(t, text.replace("ab", "new"))) == json.loads(text.replace("ab", "new"))  # type: ignore[misc]
    # The value is not where the member is (another string holds the same text).
    text = '{"note": "\\"content\\": \\"ab\\"", "content": "zz"}'
    assert learn(text, ("content",), ("ab",), partial(_flat, {}, "content"), json.loads) is None


# -- the Chat stream's templated path -----------------------------------------------------------


class _Counting(sr.ChatCompletionsStream):
    """Counts the chunks that the JSON decoder did not see (the templated ones)."""

    decoded = 0

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        loads = self._fast_loads

        def counting(data: Any) -> Any:
            self.decoded += 1
            return loads(data)

        self._fast_loads = counting


def _body(chunks: list[str]) -> bytes:
    # A lone surrogate left raw (ensure_ascii=False) becomes bytes that are not UTF-8: the
    # event-stream rules replace them.
    data = b"".join(b"data: " + c.encode("utf-8", "surrogatepass") + b"\n\n" for c in chunks)
    return data + b"data: [DONE]\n\n"


def _content_chunks(contents: list[str], dumps: Any = json.dumps) -> list[str]:
    first = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant", "content": ""}}])
    out = [dumps(first)]
    for i, content in enumerate(contents):
        choice = {"index": 0, "delta": {"content": content}, "logprobs": None}
        out.append(dumps(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    last = {"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}
    out.append(dumps(dict(CHAT_BASE, choices=[last])))
    return out


@pytest.mark.parametrize("loads", [json.loads, None])
def test_content_chunks_take_the_templated_path(loads: Any) -> None:
    contents = [f"w{i} " for i in range(200)]
    body = _body(_content_chunks(contents, partial(json.dumps, separators=(",", ":"))))
    stream = _Counting(json_loads=loads)
    hot = _chat_run(stream, body)
    # The opening chunk, the first content chunk (which the template is learnt from), the
    # finishing one and [DONE] go to the decoder; every other content chunk is read by the
    # template.
    assert stream.decoded == 4
    assert hot == _chat_run(_GenericChat(json_loads=loads), body)
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.choices[0].message.content == "".join(contents)


def _tool_chunks(arguments: list[str], calls: int = 2, choices: int = 1) -> list[str]:
    """Chunks that open *calls* tool calls in each of *choices* choices, then stream the same
    *arguments* to each of them, interleaved (as parallel tool calls and n > 1 do)."""
    dumps = partial(json.dumps, separators=(",", ":"))
    out = []
    for c in range(choices):
        opening: dict[str, Any] = {"index": c, "delta": {"role": "assistant", "content": None}}
        out.append(dumps(dict(CHAT_BASE, choices=[opening])))
        for t in range(calls):
            call = {"index": t, "id": f"call_{c}{t}", "type": "function"}
            call["function"] = {"name": "f", "arguments": ""}
            out.append(
                dumps(dict(CHAT_BASE, choices=[{"index": c, "delta": {"tool_calls": [call]}}]))
            )
    for i, args in enumerate(arguments):
        for c in range(choices):
            for t in range(calls):
                piece = {"index": t, "function": {"arguments": args}}
                choice = {"index": c, "delta": {"tool_calls": [piece]}}
                out.append(dumps(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    for c in range(choices):
        last = {"index": c, "delta": {}, "finish_reason": "tool_calls"}
        out.append(dumps(dict(CHAT_BASE, choices=[last])))
    return out


@pytest.mark.parametrize(("calls", "choices"), [(1, 1), (2, 1), (2, 2), (1, 3)])
@pytest.mark.parametrize("loads", [json.loads, None])
def test_tool_argument_chunks_take_the_templated_path(loads: Any, calls: int, choices: int) -> None:
    arguments = ['{"a": [', *[f'"{i}\\n", ' for i in range(300)], "1]}"]
    body = _body(_tool_chunks(arguments, calls, choices))
    stream = _Counting(json_loads=loads)
    hot = _chat_run(stream, body)
    # Openings, finishes, [DONE] and the first arguments chunk of each call go to the decoder.
    openings = choices * (1 + calls) + choices + 1
    assert stream.decoded <= openings + calls * choices + 2
    assert hot == _chat_run(_GenericChat(json_loads=loads), body)
    expected = json.loads("".join(arguments))
    for c in range(choices):
        assert stream.parsed_tool_arguments(c) == [expected] * calls


def test_a_custom_decoder_sees_every_chunk() -> None:
    seen = []

    def loads(data: str) -> Any:
        seen.append(data)
        return json.loads(data)

    body = _body(_content_chunks(["a", "b", "c", "d"]))
    stream = sr.ChatCompletionsStream(json_loads=loads)
    stream.feed(body)
    # No template: its values might differ from what this decoder makes. ([DONE] is tried too.)
    assert len(seen) == 7 and seen[-1] == "[DONE]"


def test_learning_is_bounded_when_chunks_never_repeat() -> None:
    chunks = []
    for i, raw in enumerate(_content_chunks(["x"] * 5000)):
        chunk = json.loads(raw)
        chunk["created"] = i  # every chunk's text differs outside its strings
        chunks.append(json.dumps(chunk))
    stream = sr.ChatCompletionsStream(json_loads=json.loads)
    stream.feed(_body(chunks))
    assert stream.outcome == "completed"
    assert stream._tpl_learnt <= 8 + 5002 // 64 + 1


def test_a_role_change_leaves_the_templated_path() -> None:
    # A template learnt on chunks that repeat the role; then a chunk with another role (the
    # general path: role-changed, the first role kept), then the same chunks again.
    first = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant", "content": ""}}])
    same = [
        dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "assistant", "content": c}}])
        for c in "abc"
    ]
    change = dict(CHAT_BASE, choices=[{"index": 0, "delta": {"role": "tool", "content": "d"}}])
    body = _body([json.dumps(c) for c in [first, *same, change, *same]])
    for loads in (json.loads, None):
        assert _chat_run(sr.ChatCompletionsStream(json_loads=loads), body) == _chat_run(
            _GenericChat(json_loads=loads), body
        )


@pytest.mark.parametrize("name", names("chat"))
def test_recorded_streams_read_the_same_with_templates(name: str) -> None:
    body, _ = load(name)
    for loads in (json.loads, None):
        assert _chat_run(sr.ChatCompletionsStream(json_loads=loads), body) == _chat_run(
            _GenericChat(json_loads=loads), body
        )


def test_recorded_streams_take_the_templated_path() -> None:
    # Not a property of the library but of the recordings: the real chunks do repeat their text.
    templated = total = 0
    for name in names("chat"):
        body, _ = load(name)
        stream = _Counting(json_loads=json.loads)
        events: list[Any] = []
        try:
            events = stream.feed(body)
        except sr.ProtocolError:
            continue
        total += len(events)
        templated += len(events) - stream.decoded
    assert templated > total // 3


# -- whatever the bytes: the same as without templates -------------------------------------------

TEXTS = st.text(
    st.sampled_from(["a", " ", '"', "\\", "\n", "é", "😀", "\u2028", "\x00", "/", "\ud800"]),
    max_size=6,
)

EDITS = [
    lambda s: s,
    lambda s: s + " ",
    lambda s: s[:-1],
    lambda s: s.replace('"content":"', '"content":"\x01'),
    lambda s: s.replace('"content":"', '"content": "'),
    lambda s: s.replace('"content":"', '"content":"\\u12'),
    lambda s: s.replace('"content":"', '"role":"assistant","content":"'),
    lambda s: s.replace('"content":"', '"content":"x","content":"'),
    lambda s: s.replace('"finish_reason":null', '"finish_reason":"length"'),
    lambda s: s.replace('"index":0', '"index":1'),
    lambda s: s.replace('"obfuscation":"', '"obfuscation":"\\"'),
    lambda s: s.replace('"created":1766410466', '"created":1766410467'),
    lambda s: s.replace("}]", "},{}]"),
    lambda s: s.replace('"id":"chatcmpl-1"', '"id":"chatcmpl-2"'),
    lambda s: "[DONE]",
    lambda s: '{"error":{"message":"boom"}}',
    lambda s: s.replace('"logprobs":null', '"logprobs":null,"content_filter_results":{"h":[1]}'),
    lambda s: s.replace('"logprobs":null', '"logprobs":null,"vendor":null'),
    lambda s: s.replace('{"id":', '{"vendor":{"a":1},"id":'),
]


@settings(max_examples=200)
@given(
    contents=st.lists(TEXTS, min_size=1, max_size=12),
    edits=st.lists(st.tuples(st.integers(0, 11), st.sampled_from(range(len(EDITS)))), max_size=4),
    ascii_only=st.booleans(),
    strict=st.booleans(),
)
def test_templated_path_equals_generic_path(
    contents: list[str], edits: list[tuple[int, int]], ascii_only: bool, strict: bool
) -> None:
    dumps = partial(json.dumps, separators=(",", ":"), ensure_ascii=ascii_only)
    chunks = _content_chunks(contents, dumps)
    _edit_and_compare(chunks, contents, edits, strict)


@settings(max_examples=200)
@given(
    arguments=st.lists(TEXTS, min_size=1, max_size=12),
    edits=st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, len(EDITS) - 1), st.integers(0, 7)),
        max_size=4,
    ),
    calls=st.integers(1, 2),
    choices=st.integers(1, 2),
    strict=st.booleans(),
)
def test_templated_tool_path_equals_generic_path(
    arguments: list[str],
    edits: list[tuple[int, int, int]],
    calls: int,
    choices: int,
    strict: bool,
) -> None:
    chunks = _tool_chunks(arguments, calls, choices)
    pieces = len(arguments) * calls * choices
    start = len(chunks) - pieces - choices
    for position, edit, tool_edit in edits:
        i = start + position % pieces
        chunks[i] = TOOL_EDITS[tool_edit](EDITS[edit](chunks[i]))
    _compare(_body(chunks), strict)


TOOL_EDITS = [
    lambda s: s,
    lambda s: s.replace('"arguments":"', '"arguments": "'),
    lambda s: s.replace('"arguments":"', '"arguments":"\\x'),
    lambda s: s.replace('{"index":0,"function"', '{"index":1,"function"'),
    lambda s: s.replace('"function":{', '"function":{"name":"g",'),
    lambda s: s.replace('"function":{', '"id":"call_00","function":{'),
    lambda s: s.replace('"function":{', '"type":"function","function":{'),
    lambda s: s.replace('"function":{', '"function":{"name":null,'),
]


def _compare(body: bytes, strict: bool) -> None:
    for loads in (json.loads, None):
        hot = _chat_run(sr.ChatCompletionsStream(strict=strict, json_loads=loads), body)
        generic = _chat_run(_GenericChat(strict=strict, json_loads=loads), body)
        assert hot == generic


def _edit_and_compare(
    chunks: list[str], contents: list[str], edits: list[tuple[int, int]], strict: bool
) -> None:
    for position, edit in edits:
        i = 1 + position % len(contents)
        chunks[i] = EDITS[edit](chunks[i])
    _compare(_body(chunks), strict)


# -- Azure: unmodelled choice fields ---------------------------------------------------------------

SAFE = {"filtered": False, "severity": "safe"}


def _azure_chunks(contents: list[str], low_at: int = -1) -> list[str]:
    """Azure OpenAI's shape: every choice carries content_filter_results (an object)."""
    dumps = partial(json.dumps, separators=(",", ":"))
    out = []
    first = {
        "index": 0,
        "delta": {"role": "assistant", "content": ""},
        "content_filter_results": {},
    }
    out.append(dumps(dict(CHAT_BASE, choices=[first])))
    for i, content in enumerate(contents):
        filters = {"hate": dict(SAFE), "violence": dict(SAFE)}
        choice = {
            "content_filter_results": filters,
            "delta": {"content": content},
            "finish_reason": None,
            "index": 0,
            "logprobs": None,
        }
        if i == low_at:
            # Another value, in a chunk that no template reads and that teaches none (it has
            # logprobs): the templated chunks after it must put their own value back.
            filters["violence"]["severity"] = "low"
            choice["logprobs"] = {"content": []}
        out.append(dumps(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    last = {"index": 0, "delta": {}, "finish_reason": "stop"}
    out.append(dumps(dict(CHAT_BASE, choices=[last])))
    return out


@pytest.mark.parametrize("low_at", [-1, 0, 50, 199])
@pytest.mark.parametrize("loads", [json.loads, None])
def test_azure_chunks_take_the_templated_path(loads: Any, low_at: int) -> None:
    contents = [f"w{i} " for i in range(200)]
    body = _body(_azure_chunks(contents, low_at))
    stream = _Counting(json_loads=loads)
    hot = _chat_run(stream, body)
    assert hot == _chat_run(_GenericChat(json_loads=loads), body)
    # The odd chunk is decoded; the template learnt before it serves the chunks after it.
    assert stream.decoded <= 4 + (0 if low_at < 0 else 1)
    events = [e for e in hot["events"] if isinstance(e, sr.ChatCompletionChunk)]
    if low_at >= 0:
        assert events[1 + low_at].choices[0].extra["content_filter_results"]["violence"] == {
            "filtered": False,
            "severity": "low",
        }
    # The accumulated choice keeps the value of the last chunk that had one (a templated one).
    last = {"hate": SAFE, "violence": dict(SAFE, severity="low") if low_at == 199 else SAFE}
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.choices[0].extra == {"content_filter_results": last}


# -- logprobs: a template with the token entries as a JSON value -------------------------------

ENTRY = {"token": "a", "logprob": -0.5, "bytes": [97], "top_logprobs": []}


def _logprobs_chunks(
    contents: list[str], dumps: Any = None, opening_logprobs: bool = True
) -> list[str]:
    """A logprobs=True stream's chunks: every content chunk carries its token entries."""
    dumps = dumps or partial(json.dumps, separators=(",", ":"))
    first: dict[str, Any] = {"index": 0, "delta": {"role": "assistant", "content": ""}}
    if opening_logprobs:
        first["logprobs"] = {"content": [], "refusal": None}
    out = [dumps(dict(CHAT_BASE, choices=[first]))]
    for i, content in enumerate(contents):
        entry = dict(ENTRY, token=content, top_logprobs=[dict(ENTRY, token=content[:1])])
        choice = {
            "index": 0,
            "delta": {"content": content},
            "logprobs": {"content": [entry], "refusal": None},
            "finish_reason": None,
        }
        out.append(dumps(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    last = {"index": 0, "delta": {}, "logprobs": None, "finish_reason": "stop"}
    out.append(dumps(dict(CHAT_BASE, choices=[last])))
    return out


@pytest.mark.parametrize("opening_logprobs", [True, False])
@pytest.mark.parametrize("loads", [json.loads, None])
def test_logprobs_chunks_take_the_templated_path(loads: Any, opening_logprobs: bool) -> None:
    contents = [f"w{i} " for i in range(200)]
    body = _body(_logprobs_chunks(contents, opening_logprobs=opening_logprobs))
    stream = _Counting(json_loads=loads)
    hot = _chat_run(stream, body)
    assert hot == _chat_run(_GenericChat(json_loads=loads), body)
    snapshot = stream.snapshot()
    assert snapshot is not None and snapshot.choices[0].logprobs is not None
    assert [e["token"] for e in snapshot.choices[0].logprobs["content"]] == contents
    if loads is json.loads:
        # The opening chunk, the first content chunk (the template is learnt from it), the
        # finishing one and [DONE] go to the decoder; every other content chunk is read by the
        # template, its entries by the standard library's scanner.
        assert stream.decoded == 4
    else:
        # orjson: no logprobs template (it may refuse what the scanner accepts).
        assert stream.decoded == len(contents) + 3


def test_recorded_logprobs_streams_take_the_templated_path() -> None:
    for name in ("chat-openai-python-test_content_logprobs_events",
                 "chat-openai-node-emits-content-logprobs-events"):  # fmt: skip
        body, _ = load(name)
        stream = _Counting(json_loads=json.loads)
        hot = _chat_run(stream, body)
        assert hot == _chat_run(_GenericChat(json_loads=json.loads), body)
        if name.startswith("chat-openai-python"):
            # 5 chunks and [DONE]: the second content chunk ("!") is read by the template.
            assert (len(hot["events"]), stream.decoded) == (5, 5)


@pytest.mark.parametrize("azure", [False, True])
def test_interleaved_logprobs_choices_give_the_general_paths_result(azure: bool) -> None:
    # n=2: the chunks of two choices alternate, each read by its own logprobs template; with
    # Azure's content_filter_results no template is learnt at all. Either way: the general
    # path's result.
    dumps = partial(json.dumps, separators=(",", ":"))
    chunks = []
    for c in range(2):
        first = {"index": c, "delta": {"role": "assistant", "content": ""}}
        first["logprobs"] = {"content": [], "refusal": None}
        chunks.append(dumps(dict(CHAT_BASE, choices=[first])))
    for i in range(150):
        for c in range(2):
            entry = dict(ENTRY, token=f"{c}{i}")
            choice: dict[str, Any] = {
                "index": c,
                "delta": {"content": f"{c}{i} "},
                "logprobs": {"content": [entry], "refusal": None},
                "finish_reason": None,
            }
            if azure:
                choice["content_filter_results"] = {"hate": dict(SAFE)}
            chunks.append(dumps(dict(CHAT_BASE, choices=[choice], obfuscation=f"p{i}")))
    for c in range(2):
        last = {"index": c, "delta": {}, "logprobs": None, "finish_reason": "stop"}
        chunks.append(dumps(dict(CHAT_BASE, choices=[last])))
    body = _body(chunks)
    stream = _Counting(json_loads=json.loads)
    hot = _chat_run(stream, body)
    assert hot == _chat_run(_GenericChat(json_loads=json.loads), body)
    if not azure:
        # Each choice's opening, first content and finishing chunks, and [DONE], are decoded.
        assert stream.decoded == 7
    _compare_all_paths(body)
    snapshot = stream.snapshot()
    assert snapshot is not None
    for c in range(2):
        logprobs = snapshot.choices[c].logprobs
        assert logprobs is not None
        assert [e["token"] for e in logprobs["content"]] == [f"{c}{i}" for i in range(150)]


LOGPROBS_EDITS = [
    lambda s: s,
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[1,'),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[[],'),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content": ['),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[{"a":1,"a":2},'),
    lambda s: s.replace(
        '"logprobs":{"content":[', '"logprobs":{"content":[{"n":123456789012345678901234567890},'
    ),
    lambda s: s.replace(
        '"logprobs":{"content":[', '"logprobs":{"content":[{"n":NaN,"m":-Infinity},'
    ),
    lambda s: s.replace(
        '"logprobs":{"content":[', '"logprobs":{"content":[{"n":' + "[" * 40 + "]" * 40 + "},"
    ),
    lambda s: s.replace(
        '"logprobs":{"content":[', '"logprobs":{"content":[{"n":' + "[" * 3000 + "]" * 3000 + "},"
    ),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[{"x":"\\ud800"},'),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[{"x":"\x01"},'),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[{"x":1}],"content":['),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":[{"x":1] ,'),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":{},"x":['),
    lambda s: s.replace('"logprobs":{"content":[', '"logprobs":{"content":null,"x":['),
    lambda s: s.replace('"refusal":null', '"refusal":[]'),
    lambda s: s.replace('"refusal":null', '"refusal":null,"vendor":1'),
    lambda s: s.replace('"logprobs":{"content":[{', '"logprobs":{"content":[{"content":"z",'),
    lambda s: s.replace('],"refusal"', '] ,"refusal"'),
    lambda s: s.replace('],"refusal"', ']],"refusal"'),
]


def _compare_all_paths(body: bytes, **options: Any) -> None:
    """The templated path, the general path and events=False give the same (both decoders)."""
    for loads in (json.loads, None):
        options["json_loads"] = loads
        hot = _chat_run(sr.ChatCompletionsStream(**options), body)
        generic = _chat_run(_GenericChat(**options), body)
        assert hot == generic
        quiet = sr.ChatCompletionsStream(events=False, **options)
        try:
            quiet.feed(body)
            quiet.close()
        except sr.ProtocolError as exc:
            assert (type(exc), str(exc)) == generic["error"]
        assert quiet.outcome == generic["outcome"] and quiet.diagnostics == generic["diagnostics"]
        snapshot = quiet.snapshot()
        assert (None if snapshot is None else snapshot.to_dict()) == generic["snapshot"]


@pytest.mark.parametrize("edit", range(len(LOGPROBS_EDITS)))
@pytest.mark.parametrize("depth", [None, 30, 256])
@pytest.mark.parametrize("strict", [False, True])
def test_each_logprobs_edit_of_a_templated_chunk(
    edit: int, depth: int | None, strict: bool
) -> None:
    # Every edit, on a chunk the template would read (the third; the second teaches it).
    chunks = _logprobs_chunks(["a", "b", "c", "d"])
    chunks[3] = LOGPROBS_EDITS[edit](chunks[3])
    _compare_all_paths(_body(chunks), strict=strict, max_nesting_depth=depth)


@settings(max_examples=300)
@given(
    contents=st.lists(TEXTS, min_size=2, max_size=10),
    edits=st.lists(
        st.tuples(
            st.integers(0, 9),
            st.integers(0, len(EDITS) - 1),
            st.integers(0, len(LOGPROBS_EDITS) - 1),
        ),
        max_size=4,
    ),
    strict=st.booleans(),
    depth=st.sampled_from([None, 30, 256]),
)
def test_templated_logprobs_path_equals_generic_path(
    contents: list[str],
    edits: list[tuple[int, int, int]],
    strict: bool,
    depth: int | None,
) -> None:
    chunks = _logprobs_chunks(contents)
    for position, edit, lp_edit in edits:
        i = 1 + position % len(contents)
        chunks[i] = LOGPROBS_EDITS[lp_edit](EDITS[edit](chunks[i]))
    _compare_all_paths(_body(chunks), strict=strict, max_nesting_depth=depth)
