"""Chat Completions fast paths: the chunks of nearly every stream, applied sooner.

An optimisation beside the readable specification, the general path (:mod:`._chat.accumulate`):
every chunk these paths take, the general path would apply to the same snapshot, with the same
chunk object, the same accessors' values and no diagnostic; every chunk they refuse goes the
general way, with nothing changed. Two of them, each standing for a part of the general path:

* the common shape (:meth:`ChatFastPaths._common`, applied by :meth:`ChatFastPaths._extend`,
  its event built by :meth:`ChatFastPaths._chunk`): one choice already open whose delta only
  extends its content and/or the arguments of tool calls already open. It stands for
  :meth:`ChatAccumulator._check_chunk` (nothing new is opened, so no limit or index can fail),
  :meth:`ChatAccumulator._accumulate` (identity fields: the first non-empty kept;
  ``system_fingerprint``/``service_tier``: the last non-null), its ``_accumulate_choice``
  (unmodelled choice fields: the last non-null value kept; ``finish_reason``: the last
  non-null; ``logprobs``: its token lists extended), ``_accumulate_delta`` (``content``
  concatenated; a role equal to the choice's: ignored) and ``_accumulate_tool_call``
  (``arguments`` concatenated; an id, type or name equal to the call's: ignored), and for
  :func:`hot_chunk`, the chunk's constructor.
* the shape templates (:meth:`ChatFastPaths._templated`, learnt by :meth:`ChatFastPaths._learn`,
  with the machinery of :mod:`._chat.shape`): a chunk whose text repeats a chunk the common path
  took, but for its content (or its one tool call's arguments) and its ``obfuscation``. It stands
  for the JSON decoder and the common path's checks: by the JSON grammar such a chunk decodes to
  the same dict but for those strings, and the state it was checked against cannot have changed.
  With ``logprobs=True`` and the standard library's decoder, the token entries of
  ``logprobs.content`` vary too: the logprobs template (:meth:`ChatFastPaths._logprobs_templated`,
  learnt by :meth:`ChatFastPaths._learn_logprobs`) reads them with the decoder's own scanner, or
  (the API's one entry a chunk) only matches them (:data:`._chat.entries.ONE_ENTRY`), and keeps
  their text for the snapshot (:mod:`._chat.entries`); the chunk's event decodes them, and builds
  its choice, when first read.

tests/test_hot_paths.py (the common shape, and every near miss of it), tests/test_shape.py (the
templates, the logprobs one included, with edited chunks), tests/test_chat_fuzz.py (arbitrary
bodies) and tests/test_chat_fast_views.py (recorded and generated streams at every chunking, and
every chunk's accessors against its deltas) run each stream twice, with and without these paths
(``_HOT = False``), and require the same events, snapshots, diagnostics and errors.

With ``events=False`` (the snapshot only) both paths apply the same values and build no event
(tests/test_snapshot_only.py requires the same snapshot, diagnostics, outcome and errors as the
events path).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from .._base import BIG_EVENT_DATA
from .._responses.accumulate import Text
from .accumulate import CHAIN, CONTENT, IGNORED_TOP, ChatAccumulator, ChoiceAcc, Mark, View, link
from .entries import ENTRY_DEPTH, ONE_ENTRY, Entries
from .models import (
    CHUNK_OBJECT,
    ChatCompletionChunk,
    ChoiceDelta,
    ChoiceDeltaTwin,
    ChoiceLogprobs,
    ChoiceLogprobsTwin,
    ChunkChoice,
    ChunkChoiceTwin,
    ChunkTwin,
    ToolCallDelta,
    new_object,
    tool_call_delta,
)
from .shape import (
    SKIMMED,
    STRING,
    VALUE,
    ScanValue,
    SlotTemplate,
    Template,
    learn,
    learn_slots,
    match_slots,
)

__all__ = ["ChatFastPaths"]

_TOOL_KNOWN = ToolCallDelta._KNOWN  # pyright: ignore[reportPrivateUsage]
_TOP_COMMON = ChatCompletionChunk._KNOWN | IGNORED_TOP  # pyright: ignore[reportPrivateUsage]
_CHOICE_KNOWN = ChunkChoice._KNOWN  # pyright: ignore[reportPrivateUsage]

_SCALARS = frozenset({str, int, float, bool, type(None)})

# The string scanner the shape templates read with (see _chat/shape.py).
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]


def _entries(lp: Any) -> bool:
    """Whether *lp* is a logprobs object ``ChoiceLogprobs.from_dict`` accepts: ``content`` and
    ``refusal`` each null or an array of objects (token entries); other keys are free."""
    if lp.__class__ is not dict:
        return False
    for key in ("content", "refusal"):
        v = lp.get(key)
        if v is not None:
            if v.__class__ is not list:
                return False
            for item in v:
                if item.__class__ is not dict:
                    return False
    return True


def _logprobs_chunk(
    dicts: tuple[dict[str, Any], ...], text: str, entries: list[Any], obf: str | None = None
) -> dict[str, Any]:
    """The wire dict of a chunk read by the logprobs template (see _learn_logprobs): the
    template's dicts, copied, with its content, token entries and padding."""
    d0, c0, delta0, lp0 = dicts
    raw_delta = delta0.copy()
    raw_delta["content"] = text
    lp = lp0.copy()
    lp["content"] = entries
    c = c0.copy()
    c["delta"] = raw_delta
    c["logprobs"] = lp
    d = d0.copy()
    d["choices"] = [c]
    if obf is not None:
        d["obfuscation"] = obf
    return d


def _choice(
    c: dict[str, Any],
    raw_delta: dict[str, Any],
    index: int,
    role: str | None,
    content: str | None,
    tool_calls: list[ToolCallDelta] | None,
    finish: str | None,
    lp: dict[str, Any] | None,
) -> ChunkChoice:
    """The :class:`ChunkChoice` of a chunk of the common shape (see ChatFastPaths._chunk)."""
    delta = new_object(ChoiceDeltaTwin)
    delta.role = role
    delta.content = content
    delta.refusal = None
    delta.tool_calls = tool_calls
    delta.function_call = None
    delta.reasoning_content = None
    delta.reasoning = None
    delta.reasoning_details = None
    delta._raw = raw_delta
    delta.__class__ = ChoiceDelta
    logprobs = None
    if lp is not None:
        logprobs = new_object(ChoiceLogprobsTwin)
        logprobs.content = lp.get("content")
        logprobs.refusal = lp.get("refusal")
        logprobs._raw = lp
        logprobs.__class__ = ChoiceLogprobs
    choice = new_object(ChunkChoiceTwin)
    choice.index = index
    choice.delta = delta
    choice.logprobs = logprobs
    choice.finish_reason = finish
    choice._raw = c
    choice.__class__ = ChunkChoice
    return choice  # type: ignore[no-any-return]


def _logprobs_parts(
    dicts: tuple[dict[str, Any], ...],
    index: int,
    role: str | None,
    content: str,
    entries: list[Any] | str,
    obf: str | None,
    scan: ScanValue,
) -> dict[str, Any]:
    """The fields a chunk read by the logprobs template builds on first read (``choices`` and
    its wire dict; see ``models._Pending``): what ChatFastPaths._chunk gives it. *entries*: the
    token entries, or their text (not decoded yet, see _chat/entries.py), read by *scan*."""
    items: list[Any] = scan(entries, 0)[0] if isinstance(entries, str) else entries
    d = _logprobs_chunk(dicts, content, items, obf)
    c = d["choices"][0]
    choice = _choice(c, c["delta"], index, role, content, None, None, c["logprobs"])
    return {"choices": [choice], "_raw": d}


_LOGPROBS_KEYS = frozenset({"content", "refusal"})

# The most shape templates a stream keeps (one per choice and tool call being streamed, as
# with n > 1 or parallel tool calls): each chunk that no template matches tries them all.
_MAX_TEMPLATES = 4


def _raw_chunk(fields: Any, text: str, obf: str | None = None) -> dict[str, Any]:
    """The wire dict of a templated chunk (see ChatCompletionsStream._learn): the template's
    dicts, copied, with these strings (the content, or a tool call's arguments, and the
    padding). The same keys in the same order as the JSON decoder's."""
    raw_delta = fields[5].copy()
    if fields[2] is None:
        raw_delta["content"] = text
    else:
        f = fields[7].copy()
        f["arguments"] = text
        tc = fields[6].copy()
        tc["function"] = f
        raw_delta["tool_calls"] = [tc]
    c = fields[4].copy()
    c["delta"] = raw_delta
    d: dict[str, Any] = fields[3].copy()
    d["choices"] = [c]
    if obf is not None:
        d["obfuscation"] = obf
    return d


class ChatFastPaths(ChatAccumulator):
    """The common-shape path and the shape templates (see the module docstring): each applies a
    chunk exactly as the general path of :class:`ChatAccumulator` would, or declines it unchanged.

    The state declared here is set by :class:`ChatCompletionsStream`'s ``__init__``.
    """

    _tpls: list[Template]  # the templates, newest first (at most _MAX_TEMPLATES)
    _lp_tpls: list[SlotTemplate]  # the logprobs templates, newest first (see _learn_logprobs)
    _tpl_on: bool  # whether templates are learnt (only with the decoders they were proven for)
    _tpl_learnt: int  # attempts to learn one (bounded, see _learn)
    # The stream's _view (a method of ChatCompletionsStream): every chunk holds a partial of it,
    # bound per chunk; bound once on the stream it would make the stream a reference cycle.
    _view: Callable[..., Any]
    _pack: (
        Callable[[Any], bytes] | None
    )  # orjson's dumps when orjson decodes (see _chat/entries.py)
    events: bool  # False: the snapshot only (no event is built)

    def _common(self, d: dict[str, Any], out: list[Any]) -> bool:
        """Accumulate the chunk *d*, and append its event to *out* (unless the stream was made
        with ``events=False``), if it has the common shape; else return False, unchanged.

        The common shape: one choice already open, whose delta only extends its content and/or
        the arguments of tool calls already open (an identical repeat of its role, or of a tool
        call's id, type or name, is allowed); a complete identity (``id``, ``model``, ``object``
        ``chat.completion.chunk``); at the top level and in the delta, no other field than the
        modelled ones and ``obfuscation`` (the choice may have unmodelled fields, such as Azure's
        ``content_filter_results``: kept as :meth:`_accumulate` keeps them); a ``logprobs``
        object whose ``content`` / ``refusal`` are null or arrays of objects (``logprobs=True``
        puts one on every chunk); no usage, refusal, reasoning or legacy function call. Such a
        chunk can neither fail nor record a diagnostic. Everything is checked before anything is
        changed; then the chunk is applied as :meth:`_accumulate` would (same order, same
        results) and built as :func:`hot_chunk` would. Anything else returns False and goes the
        general way.

        The general rules it stands for (rows of ``CHAT_ACCUMULATION_RULES``): no new choice or
        tool call, so :meth:`_check_chunk` cannot fail; ``content`` and tool ``arguments``
        appended; ``role``, tool-call ``id``/``type``/``function.name`` set once (here only an
        identical repeat, which changes nothing); ``id``/``model``/``created`` the first
        non-empty; ``system_fingerprint``, ``service_tier``, ``finish_reason`` and unmodelled
        choice fields the last non-null; ``logprobs.content`` / ``logprobs.refusal`` extended,
        other ``logprobs`` fields the last non-null; ``obfuscation`` ignored.
        """
        # One function, not hot_chunk + a check + _accumulate: each value is read and
        # type-checked once, and no call is made per nested object.
        get = d.get
        raw_choices: Any = get("choices")
        if raw_choices.__class__ is not list or len(raw_choices) != 1:
            return False
        c = raw_choices[0]
        if c.__class__ is not dict:
            return False
        cget = c.get
        index = cget("index")
        if index.__class__ is not int:
            return False
        ch = self._choices.get(index)
        raw_delta = cget("delta")
        finish = cget("finish_reason")
        cid = get("id")
        kind = get("object")
        created = get("created")
        model = get("model")
        fingerprint = get("system_fingerprint")
        tier = get("service_tier")
        lp = cget("logprobs")
        if (
            ch is None
            or raw_delta.__class__ is not dict
            or (finish is not None and finish.__class__ is not str)
            or (lp is not None and not _entries(lp))
            or not cid
            or cid.__class__ is not str
            or not model
            or model.__class__ is not str
            or kind != CHUNK_OBJECT
            or get("usage") is not None
            or (created is not None and created.__class__ is not int)
            or (fingerprint is not None and fingerprint.__class__ is not str)
            or (tier is not None and tier.__class__ is not str)
            or not d.keys() <= _TOP_COMMON
        ):
            return False
        extras = None
        if not c.keys() <= _CHOICE_KNOWN:
            # Unmodelled choice fields (Azure's content_filter_results): kept as they come.
            extras = [(k, v) for k, v in c.items() if k not in _CHOICE_KNOWN and v is not None]
        role = content = None
        tool_calls: list[ToolCallDelta] | None
        raw_calls = tool_calls = None
        for k, v in raw_delta.items():
            if v is None:
                continue  # a null field, modelled or not, adds nothing
            if k == "content":
                if v.__class__ is not str:
                    return False
                content = v
            elif k == "tool_calls":
                if v.__class__ is not list:
                    return False
                raw_calls = v
            elif k == "role":
                if v != ch.role:  # also rejects a non-string
                    return False
                role = v
            else:
                return False
        build = self.events
        pairs: list[tuple[int, str | None]] | None = None
        if raw_calls is not None:
            calls = ch.tool_calls
            tool_calls = [] if build else None
            pairs = []
            for tc in raw_calls:
                if tc.__class__ is not dict:
                    return False
                tget = tc.get
                t = tget("index")
                if t.__class__ is not int:
                    return False
                acc = calls.get(t)
                tc_id = tget("id")
                tc_type = tget("type")
                f = tget("function")
                # An id, type or name may only repeat what the call has (or be empty).
                if (
                    acc is None
                    or not tc.keys() <= _TOOL_KNOWN
                    or (
                        tc_id is not None
                        and (tc_id.__class__ is not str or (tc_id and tc_id != acc.id))
                    )
                    or (
                        tc_type is not None
                        and (tc_type.__class__ is not str or (tc_type and acc.type is None))
                    )
                ):
                    return False
                name = arguments = None
                if f is not None:
                    if f.__class__ is not dict:
                        return False
                    name = f.get("name")
                    arguments = f.get("arguments")
                    if (
                        name is not None
                        and (name.__class__ is not str or (name and name != acc.name))
                    ) or (arguments is not None and arguments.__class__ is not str):
                        return False
                pairs.append((t, arguments))
                if tool_calls is not None:
                    tool_calls.append(tool_call_delta(t, tc_id, tc_type, f, name, arguments, tc))
        mark = self._extend(
            ch, index, content, pairs, finish, cid, created, model, fingerprint, tier, lp
        )
        if extras:
            for k, v in extras:
                ch.extra[k] = v
        if build:
            chunk = self._chunk(
                d, c, raw_delta, index, role, content, tool_calls, finish, cid, kind, created,
                model, fingerprint, tier, lp, mark,
            )  # fmt: skip
            out.append(chunk)
        return True

    def _extend(
        self,
        ch: ChoiceAcc,
        index: int,
        content: str | None,
        pairs: list[tuple[int, str | None]] | tuple[tuple[int, str], ...] | None,
        finish: str | None,
        cid: str,
        created: int | None,
        model: str,
        fingerprint: str | None,
        tier: str | None,
        lp: dict[str, Any] | None,
    ) -> Mark:
        """Apply a chunk of the common shape, checked by :meth:`_common` or matched by a
        template (:meth:`_templated`): what :meth:`_accumulate` does for it, in the same order,
        with the values already read (*pairs*: each tool call's index and arguments). Returns
        the mark its event's accessors read (see :func:`link`)."""
        self._seq += 1
        self._snap = None
        if self._id is None:
            self._id = cid
        if self._model is None:
            self._model = model
        if created and self._created is None:
            self._created = created
        if fingerprint is not None:
            self._fingerprint = fingerprint
        if tier is not None:
            self._service_tier = tier
        ch.cache = None
        # The lengths of the texts this chunk extended, for its event's accessors: without
        # events (events=False) there is no event to read them, so none are kept.
        track = self.events
        mark = self._mark
        if content is not None:
            text = ch.content
            if text is None:
                text = ch.content = Text(content)
            else:
                text.append(content)
            if track:
                if type(mark) is tuple and mark[1] < CHAIN - 1:  # link's common case, inline
                    mark = (mark, mark[1] + 1, index, CONTENT, text.length)
                else:
                    mark = link(mark, index, CONTENT, text.length)
        if pairs:
            for t, arguments in pairs:
                ch.last_tool = t
                if arguments:
                    args = ch.tool_calls[t].args
                    args.append(arguments)
                    if track:
                        mark = link(mark, index, t, args.length)
        if lp is not None:
            ch.extend_logprobs(lp, self._pack)  # _accumulate_choice's logprobs rule
        if finish is not None:
            ch.finish_reason = finish
        self._mark = mark
        return mark

    def _chunk(
        self,
        d: dict[str, Any],
        c: dict[str, Any],
        raw_delta: dict[str, Any],
        index: int,
        role: str | None,
        content: str | None,
        tool_calls: list[ToolCallDelta] | None,
        finish: str | None,
        cid: str,
        kind: str,
        created: int | None,
        model: str,
        fingerprint: str | None,
        tier: str | None,
        lp: dict[str, Any] | None,
        mark: Mark,
        pending: Callable[[], dict[str, Any]] | None = None,
    ) -> ChatCompletionChunk:
        """The event of a chunk :meth:`_extend` applied: what :func:`hot_chunk` builds, with
        the values already read, and its accessors reading *mark*. With *pending*, its
        ``choices`` and wire dict are built on first read, by *pending* (see models._Pending)."""
        chunk = new_object(ChunkTwin)
        chunk.id = cid
        chunk.object = kind
        chunk.created = created
        chunk.model = model
        chunk.usage = None
        chunk.system_fingerprint = fingerprint
        chunk.service_tier = tier
        if pending is None:
            chunk.choices = [_choice(c, raw_delta, index, role, content, tool_calls, finish, lp)]
            chunk._raw = d
        else:
            chunk._pending = pending
        # The chunk's accessors read the lengths as of now: held by the chunk, not the stream.
        view = new_object(View)
        view.stream = self
        view.mark = mark
        chunk._view = view
        chunk.__class__ = ChatCompletionChunk
        return chunk  # type: ignore[no-any-return]

    def _templated(self, text: str, out: list[Any]) -> bool:
        """Accumulate the chunk *text*, and append its event to *out* (unless ``events=False``),
        if a template matches it (and the state is one in which :meth:`_common` would take it);
        else return False, unchanged.

        What :meth:`_common` checks, the template stands for: the same fields with the same
        values around the strings, and a state that cannot have changed since (a choice or a
        tool call, once open, is never removed; a choice's role is set once).

        Nearly every chunk of a stream comes here: :func:`._chat.shape.match`, :meth:`_chunk`
        and :func:`_choice` are written out in it (a Python call per chunk each, about a tenth
        of the chunk's cost together); tests/test_shape.py holds them to the general path.
        """
        n = len(text)
        value: str
        obf: str | None
        for tpl in self._tpls:
            # shape.match(tpl, text), inline.
            head = tpl.head
            if not text.startswith(head):
                continue
            mid = tpl.mid
            try:
                value, end = _scanstring(text, len(head))
                if mid is None:
                    obf = None
                elif text.startswith(mid, end):
                    obf, end = _scanstring(text, end + len(mid))
                else:
                    continue
            except ValueError:  # not a valid string there (json.JSONDecodeError is a ValueError)
                continue
            tail = tpl.tail
            if end + len(tail) == n and text.endswith(tail):
                if tpl.swapped:
                    value, obf = obf, value  # type: ignore[assignment]
                break
        else:
            return False
        fields = tpl.fields
        (
            index,
            role,
            t,
            d0,
            c0,
            delta0,
            tc0,
            f0,
            cid,
            kind,
            created,
            model,
            fingerprint,
            tier,
            extras,
        ) = fields
        # What _extend does for such a chunk, shortened by what the template implies: the chunk
        # it was learnt from set the completion's id and model (non-empty) and its created (if
        # non-zero), which are kept from the first chunk that has them; it opened the choice's
        # content (a Text, which stays) or, with its one tool call, that call.
        self._seq += 1
        self._snap = None
        if fingerprint is not None:
            self._fingerprint = fingerprint
        if tier is not None:
            self._service_tier = tier
        ch = self._choices[index]
        ch.cache = None
        if extras:
            # The template's own values, shared by its chunks: nothing ever changes them (every
            # accessor hands out copies).
            for k in extras:
                ch.extra[k] = c0[k]
        if t is None:
            acc: Text = ch.content  # type: ignore[assignment]  # (see above)
            acc.append(value)
            if not self.events:
                return True
            key, length = CONTENT, acc.length
        else:
            ch.last_tool = t
            if value:
                args = ch.tool_calls[t].args
                args.append(value)
                if not self.events:
                    return True
                key, length = t, args.length
            elif not self.events:
                return True
            else:
                key, length = None, 0  # (an empty piece extends nothing: no link)
        mark = self._mark
        if key is not None:
            if type(mark) is tuple and mark[1] < CHAIN - 1:  # link's common case, inline
                mark = self._mark = (mark, mark[1] + 1, index, key, length)
            else:
                mark = self._mark = link(mark, index, key, length)
        # The event: what _raw_chunk, _chunk and _choice build, inline.
        raw_delta = delta0.copy()
        delta = new_object(ChoiceDeltaTwin)
        delta.role = role
        if t is None:
            raw_delta["content"] = value
            delta.content = value
            delta.tool_calls = None
        else:
            f = f0.copy()
            f["arguments"] = value
            tc = tc0.copy()
            tc["function"] = f
            raw_delta["tool_calls"] = [tc]
            delta.content = None
            delta.tool_calls = [tool_call_delta(t, None, None, f, None, value, tc)]
        delta.refusal = None
        delta.function_call = None
        delta.reasoning_content = None
        delta.reasoning = None
        delta.reasoning_details = None
        delta._raw = raw_delta
        delta.__class__ = ChoiceDelta
        c = c0.copy()
        c["delta"] = raw_delta
        choice = new_object(ChunkChoiceTwin)
        choice.index = index
        choice.delta = delta
        choice.logprobs = None
        choice.finish_reason = None
        choice._raw = c
        choice.__class__ = ChunkChoice
        d: dict[str, Any] = d0.copy()
        d["choices"] = [c]
        if obf is not None:
            d["obfuscation"] = obf
        chunk = new_object(ChunkTwin)
        chunk.id = cid
        chunk.object = kind
        chunk.created = created
        chunk.model = model
        chunk.usage = None
        chunk.system_fingerprint = fingerprint
        chunk.service_tier = tier
        chunk.choices = [choice]
        chunk._raw = d
        # The chunk's accessors read the lengths as of now: held by the chunk, not the stream.
        view = new_object(View)
        view.stream = self
        view.mark = mark
        chunk._view = view
        chunk.__class__ = ChatCompletionChunk
        out.append(chunk)
        return True

    def _logprobs_templated(self, text: str, out: list[Any]) -> bool:
        """Accumulate the chunk *text*, and append its event to *out* (unless ``events=False``),
        if a logprobs template matches it; else return False, unchanged.

        The template (see :meth:`_learn_logprobs`) stands for the JSON decoder and the common
        path's checks, as :meth:`_templated`'s do, with one more varying part: the token
        entries of ``logprobs.content``, read by the standard library's scanner. They must be
        objects (``ChoiceLogprobs``'s rule); the nesting depth is bounded as the general path
        bounds it (an event that might nest too deep goes the general way). The one entry of the
        API's common form (:data:`ONE_ENTRY`) is only matched, not decoded (see _chat/entries.py).
        """
        spans: list[int] = []
        for tpl in self._lp_tpls:
            found = match_slots(tpl, text, spans, ONE_ENTRY)
            if found is not None:
                break
            spans.clear()
        else:
            return False
        entries = found[1]
        fields = tpl.fields
        index, role, cid, kind, created, model, fingerprint, tier, dicts, opened = fields
        if entries is SKIMMED:
            # One entry, an object, nesting ENTRY_DEPTH levels inside the template's brackets.
            limit = self.max_nesting_depth
            if limit is not None and opened + ENTRY_DEPTH > limit:
                return False  # (the general path measures it, and refuses it if too deep)
            count = 1
        else:
            if entries.__class__ is not list:
                return False
            for item in entries:
                if item.__class__ is not dict:
                    return False
            if len(text) > self._deep_len and (
                text.count("{") + text.count("[") > self.max_nesting_depth  # type: ignore[operator]
            ):
                return False  # (as above)
            count = len(entries)
        content = found[0]
        obf = found[2] if len(found) == 3 else None
        # What _extend does for such a chunk, shortened as in _templated: the chunk the
        # template was learnt from set the identity, opened the content and the logprobs, whose
        # token list stays a list (a chunk can only extend it).
        self._seq += 1
        self._snap = None
        if fingerprint is not None:
            self._fingerprint = fingerprint
        if tier is not None:
            self._service_tier = tier
        ch = self._choices[index]
        ch.cache = None
        acc: Text = ch.content  # type: ignore[assignment]  # (see above)
        acc.append(content)
        if count:
            # Kept as their text, decoded when first read (see _chat/entries.py): the entries
            # just read serve this chunk's event alone.
            kept = ch.entries
            if kept is None:
                kept = ch.entries = Entries(ch.logprobs["content"])  # type: ignore[index]
            raw = text[spans[0] : spans[1]]
            kept.add(raw, count)
            if entries is SKIMMED:
                entries = raw
        if not self.events:
            return True
        mark = self._mark
        if type(mark) is tuple and mark[1] < CHAIN - 1:  # link's common case, inline
            mark = self._mark = (mark, mark[1] + 1, index, CONTENT, acc.length)
        else:
            mark = self._mark = link(mark, index, CONTENT, acc.length)
        # The event's choice and wire dict are built when first read (most callers read few
        # chunks' entries, if any).
        pending = partial(_logprobs_parts, dicts, index, role, content, entries, obf, tpl.scan)
        chunk = self._chunk(
            None, None, None, index, role, content, None, None, cid, kind, created, model,  # type: ignore[arg-type]
            fingerprint, tier, None, mark, pending,
        )  # fmt: skip
        out.append(chunk)
        return True

    def _learn_logprobs(self, data: str | bytes | bytearray, d: dict[str, Any]) -> None:
        """Make the logprobs template of the chunk *d* just applied by :meth:`_common`, if it
        has the shape of a ``logprobs=True`` stream's chunks: a content delta (an identical role
        may repeat), a ``logprobs`` object with only token entries (``refusal`` null), no
        finish reason and no unmodelled choice field, every other value a constant scalar. Its
        content, its ``logprobs.content`` and its ``obfuscation`` vary.

        Only with the standard library's decoder: the template reads the entries with its
        scanner, which gives exactly what it gives inside a whole event (another decoder may
        refuse what it accepts, such as integers over 64 bits).
        """
        scan = self._scan
        if scan is None or not isinstance(data, str) or len(data) > BIG_EVENT_DATA:
            return
        c = d["choices"][0]
        raw_delta = c["delta"]
        lp = c["logprobs"]
        text = raw_delta.get("content")
        entries = lp.get("content")
        if (
            text.__class__ is not str
            or entries.__class__ is not list
            or lp.get("refusal") is not None
            or not lp.keys() <= _LOGPROBS_KEYS
            or c.get("finish_reason") is not None
            or not c.keys() <= _CHOICE_KNOWN
        ):
            return
        for k, v in raw_delta.items():
            if k != "content" and k != "role" and v is not None:
                return  # (a role is a string equal to the choice's: _common checked it)
        for k, v in d.items():
            if k != "choices" and v.__class__ not in _SCALARS:
                return
        dicts = (dict(d), dict(c), dict(raw_delta), dict(lp))
        slots: list[tuple[str, tuple[str, ...], Any]] = [
            (STRING, ("content",), text),
            (VALUE, ("logprobs", "content"), entries),
        ]
        obf: Any = d.get("obfuscation")
        if obf.__class__ is str:
            slots.append((STRING, ("obfuscation",), obf))
        tpl = learn_slots(data, slots, partial(_logprobs_chunk, dicts), self._loads, scan)
        if tpl is not None:
            tpl.fields = (
                c["index"],
                raw_delta.get("role"),
                d["id"],
                d["object"],
                d.get("created"),
                d["model"],
                d.get("system_fingerprint"),
                d.get("service_tier"),
                dicts,
                # The brackets the template opens (at most): how deep the text nests around
                # its entries (its strings nest nothing).
                sum(part.count("{") + part.count("[") for part in tpl.parts),
            )
            # One template per choice (n > 1): the newest first, the oldest dropped.
            kept = [x for x in self._lp_tpls if x.fields[0] != c["index"]]
            self._lp_tpls = [tpl, *kept[: _MAX_TEMPLATES - 1]]

    def _learn(self, data: str | bytes | bytearray, d: dict[str, Any]) -> None:
        """Make the template of the chunk *d* just applied by :meth:`_common`, if it has a shape
        one can describe (see :mod:`._chat.shape`): its content, or the arguments of its one tool call
        (which names no id, type or function name), and its ``obfuscation`` vary; every other
        value is a constant scalar, or the value of an unmodelled choice field (Azure's
        ``content_filter_results``), which chunks can share since no accessor hands it out
        uncopied; the choice has no finish reason.

        Attempts are bounded: 8, then one per 64 chunks, so a stream whose chunks never repeat
        pays nearly nothing for them.
        """
        c = d["choices"][0]
        raw_delta = c["delta"]
        if c.get("logprobs") is not None:
            # Token entries differ in every chunk: a template with a value slot, if any.
            # Counted as an attempt, so that a stream of other shapes stops trying soon.
            self._tpl_learnt += 1
            self._learn_logprobs(data, d)
            return
        if c.get("finish_reason") is not None or len(data) > BIG_EVENT_DATA:
            return  # (a template holds the text: only small ones are kept)
        tc = f = t = None
        text = raw_delta.get("content")
        key = "content"
        if text.__class__ is not str:
            calls = raw_delta.get("tool_calls")
            if calls.__class__ is not list or len(calls) != 1:
                return
            tc = calls[0]
            f = tc.get("function")
            if f.__class__ is not dict:
                return
            text = f.get("arguments")
            if text.__class__ is not str:
                return
            t = tc["index"]
            key = "arguments"
            for k, v in tc.items():
                if k != "function" and k != "index" and v is not None:
                    return  # an id or a type: _common compares it with the call's
            for k, v in f.items():
                if k != "arguments" and v is not None:
                    return  # a name: likewise
        for k, v in raw_delta.items():
            if k != key and v is not None and k != "role" and (tc is None or k != "tool_calls"):
                return  # (a role is a string equal to the choice's: _common checked it)
        extras: list[str] = []
        for k, v in c.items():
            if k in _CHOICE_KNOWN:
                if k != "delta" and v.__class__ not in _SCALARS:
                    return
            elif v is not None:
                extras.append(k)  # an unmodelled field: its value is shared, never changed
        for k, v in d.items():
            if k != "choices" and v.__class__ not in _SCALARS:
                return
        self._tpl_learnt += 1
        index = c["index"]
        fields = (
            index,
            raw_delta.get("role"),
            t,
            dict(d),
            dict(c),
            dict(raw_delta),
            None if tc is None else dict(tc),
            None if f is None else dict(f),
            d["id"],
            d["object"],
            d.get("created"),
            d["model"],
            d.get("system_fingerprint"),
            d.get("service_tier"),
            tuple(extras),
        )
        obf: Any = d.get("obfuscation")
        if obf.__class__ is str:
            keys: tuple[str, ...] = (key, "obfuscation")
            values: tuple[str, ...] = (text, obf)
        else:
            keys, values = (key,), (text,)
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        tpl = learn(text, keys, values, partial(_raw_chunk, fields), self._loads)
        if tpl is not None:
            tpl.fields = fields
            # One template per choice and tool call: the newest first, the oldest dropped.
            kept = [x for x in self._tpls if x.fields[0] != index or x.fields[2] != t]
            self._tpls = [tpl, *kept[: _MAX_TEMPLATES - 1]]
