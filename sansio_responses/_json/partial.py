"""An incremental JSON parser for values that arrive as string deltas.

Structured outputs and tool-call arguments stream as ``delta`` strings that only make a JSON
document once the last one has arrived. :class:`PartialJSON` keeps a parser state machine (a
stack of open containers and the state of the token in progress) and continues from where the
previous delta stopped, so the total work over a stream is linear in its length however it is
split. (The official SDK re-parses the whole prefix on every Chat chunk, which is quadratic.)

The grammar is strict RFC 8259 JSON, as the API emits: ``NaN``/``Infinity`` (which
``json.loads`` accepts by default), trailing commas, comments and unescaped control characters in
strings are errors. Duplicate keys keep the last value, as ``json.loads`` does.
"""

from __future__ import annotations

import re
from typing import Any

from .._errors import excerpt, reduce_error

__all__ = ["PartialJSON", "PartialJSONError"]

_EXCERPT_RADIUS = 30


class PartialJSONError(ValueError):
    """The text is not (or cannot become) one valid JSON document.

    Attributes:
        message: what went wrong, in words.
        position: offset in characters (not bytes) into the text where the problem was found.
        excerpt: a short excerpt of the text around ``position``.
    """

    def __init__(self, message: str, position: int, excerpt: str) -> None:
        self.message = message
        self.position = position
        self.excerpt = excerpt
        super().__init__(f"{message} at char {position}: {excerpt}")

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_error(self)


class _Fail(Exception):
    """Internal: raised inside the scanner, turned into a :class:`PartialJSONError` by ``feed``."""

    def __init__(self, message: str, position: int) -> None:
        self.message = message
        self.position = position


# Parser states.
_VALUE = 0  # a value must come next (top level, after ':' or after ',' in an array)
_VALUE_OR_END = 1  # just after '[': a value or ']'
_KEY_OR_END = 2  # just after '{': a key string or '}'
_KEY = 3  # after ',' in an object: a key string
_COLON = 4  # after a key
_AFTER = 5  # after a value inside a container: ',' or the closing bracket
_STRING = 6  # inside a string (key or value)
_NUMBER = 7  # inside a number
_DONE = 8  # the top-level value is complete: only whitespace may follow
_FAILED = 9

# RFC 8259 section 2: insignificant whitespace is space, tab, line feed, carriage return.
_WS = " \t\n\r"
_WS_RUN = re.compile(r"[ \t\n\r]*")
# RFC 8259 section 7: everything but '"', '\' and the control characters U+0000-U+001F is literal.
_STR_RUN = re.compile(r'[^"\\\x00-\x1f]*')
_DIGIT_RUN = re.compile(r"[0-9]*")
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_HEX_PREFIX = re.compile(r"[0-9a-fA-F]{0,3}")
_SIMPLE_ESCAPES = {
    '"': '"',
    "\\": "\\",
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_LITERALS: dict[str, tuple[str, object]] = {
    "t": ("true", True),
    "f": ("false", False),
    "n": ("null", None),
}

# RFC 8259 section 6 number grammar as a DFA: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
# States: 0 start, 1 after '-', 2 leading '0', 3 integer digits, 4 after '.', 5 fraction digits,
# 6 after 'e', 7 after exponent sign, 8 exponent digits.  2, 3, 5 and 8 accept.
_NUM_ACCEPT = frozenset({2, 3, 5, 8})
_DIGITS = "0123456789"


def _num_step(state: int, c: str) -> int:
    """The number DFA's transition on *c*, or -1 when *c* cannot continue the number."""
    digit = c in _DIGITS
    if state == 0:
        if c == "-":
            return 1
        return (2 if c == "0" else 3) if digit else -1
    if state == 1:
        return (2 if c == "0" else 3) if digit else -1
    if state in (2, 3):
        if digit and state == 3:
            return 3
        if c == ".":
            return 4
        return 6 if c in "eE" else -1
    if state in (4, 5):
        if digit:
            return 5
        return 6 if state == 5 and c in "eE" else -1
    if state == 6:
        if c in "+-":
            return 7
        return 8 if digit else -1
    # states 7 and 8
    return 8 if digit else -1


_NUM_EXPECT = {
    0: "a digit or '-'",
    1: "a digit after '-'",
    4: "a digit after '.'",
    6: "a digit or sign in the exponent",
    7: "a digit in the exponent",
}


class PartialJSON:
    """Parse one JSON document incrementally as its text arrives in deltas.

    ``feed(delta)`` does work proportional to ``len(delta)`` (plus at most a dozen carried
    characters of an escape or literal split across deltas). ``feed`` never raises on bad input:
    the first problem is stored in :attr:`error`, parsing stops, :attr:`value` keeps the last good
    value and :meth:`final` raises the error.

    **The best parse so far** (:attr:`value`) only grows. A value becomes visible as soon as its
    first form that cannot change later is known:

    - an object or array appears (empty) when its opening bracket arrives;
    - a string appears (empty) at its opening quote and extends as characters arrive; an escape
      sequence split across deltas (including a ``\\uXXXX\\uXXXX`` surrogate pair) appears only once
      it is whole, so no character is ever shown and then replaced;
    - a number appears only once a delimiter follows it (``,``, a bracket, whitespace), because
      ``1`` may still become ``12`` or ``1.5``; at the very end of the text only :meth:`final`
      completes it;
    - ``true``, ``false`` and ``null`` appear once all their letters have arrived;
    - an object key appears together with the first visible form of its value (so a key never maps
      to a placeholder that would later change), and an array item likewise.

    So every later value *extends* every earlier one: dicts keep their keys, each value extending
    the earlier one, and may gain keys; lists keep their items, each extending, and may gain items;
    strings grow by suffix; other scalars stay equal. (The one exception is a duplicate key, whose
    later value replaces the earlier one, as in ``json.loads``.) Unlike jiter's partial mode, which
    leaves out an unfinished string, a partial string is shown with the characters so far: users
    render growing strings (a title, a message, code) while they stream.

    Before the first value starts, :attr:`value` is ``None``.

    **Sharing.** :attr:`value` returns the parser's live tree, not a copy: reading it after every
    delta costs only the materialisation of the one string being built (``O(len)`` of that string),
    never a walk or copy of the tree. The returned object is read-only by contract and is mutated by
    later ``feed`` calls; callers that keep an earlier value must copy it (``copy.deepcopy``).

    Args:
        max_depth: the maximum nesting of arrays and objects; deeper input is an error.
        max_size: the maximum length of the text in characters, or ``None`` for no limit (the
            caller then bounds the text, as the streams do with their event size limit). Text past
            the limit is an error and is not stored.
    """

    __slots__ = (
        "_carry",
        "_carry_pos",
        "_chunks",
        "_dirty",
        "_error",
        "_has_root",
        "_keys",
        "_max_depth",
        "_max_size",
        "_num_parts",
        "_num_start",
        "_num_state",
        "_parts",
        "_pos",
        "_root",
        "_size",
        "_stack",
        "_state",
        "_str_is_key",
        "_str_key",
        "_str_target",
    )

    def __init__(self, *, max_depth: int = 512, max_size: int | None = None) -> None:
        if max_depth < 1:
            raise ValueError("max_depth must be at least 1")
        if max_size is not None and max_size < 0:
            raise ValueError("max_size must be non-negative or None")
        self._max_depth = max_depth
        self._max_size = max_size
        self._chunks: list[str] = []
        self._size = 0  # characters stored in _chunks
        self._pos = 0  # characters consumed by the scanner (excluding the carry)
        self._carry = ""  # the start of an escape or literal split across deltas (<= 12 chars)
        self._carry_pos = 0
        self._state = _VALUE
        self._stack: list[dict[str, Any] | list[Any]] = []
        self._keys: list[str] = []  # the current key of each open object (parallel to _stack)
        self._root: Any = None
        self._has_root = False
        self._parts: list[str] = []  # the string being built
        self._str_is_key = False
        self._str_target: dict[str, Any] | list[Any] | None = None  # None: the root
        self._str_key: Any = None  # key or index of the string in _str_target
        self._dirty = False  # _parts has characters not yet copied into the tree
        self._num_parts: list[str] = []
        self._num_state = 0
        self._num_start = 0
        self._error: PartialJSONError | None = None

    # -- public API --------------------------------------------------------------------------

    def feed(self, delta: str) -> None:
        """Append *delta* to the text and advance the parse. Never raises on bad JSON."""
        if not delta:
            return
        if self._max_size is not None and self._size + len(delta) > self._max_size:
            allowed = delta[: self._max_size - self._size]
            if allowed:
                self.feed(allowed)
            if self._error is None:
                self._fail(f"text longer than max_size ({self._max_size} chars)", self._max_size)
            return
        self._chunks.append(delta)
        self._size += len(delta)
        if self._error is not None:
            return
        if self._carry:
            data = self._carry + delta
            base = self._carry_pos
            self._carry = ""
        else:
            data = delta
            base = self._pos
        try:
            self._scan(data, base)
        except _Fail as exc:
            self._state = _FAILED
            self._fail(exc.message, exc.position)
        self._pos = base + len(data) - len(self._carry)
        self._carry_pos = self._pos

    @property
    def value(self) -> Any:
        """The best parse so far (see the class docs); the live tree, read-only by contract."""
        if self._dirty:
            self._flush_string()
        return self._root

    @property
    def complete(self) -> bool:
        """Whether a whole top-level value has been parsed (trailing whitespace allowed).

        A top-level number with nothing after it is not complete, since more digits may follow;
        :meth:`final` accepts it.
        """
        return self._state == _DONE

    @property
    def error(self) -> PartialJSONError | None:
        """The first problem found in the text, or ``None``."""
        return self._error

    @property
    def text(self) -> str:
        """The raw text fed so far (joined lazily; at most ``max_size`` characters)."""
        if len(self._chunks) > 1:
            self._chunks[:] = ["".join(self._chunks)]
        return self._chunks[0] if self._chunks else ""

    def final(self) -> Any:
        """Return the complete value, or raise :class:`PartialJSONError`.

        Raises when the text so far is not exactly one valid JSON document (with optional
        surrounding whitespace): the error found while feeding, or "unexpected end" for text that
        stopped early. Does not change the parser's state.
        """
        if self._error is not None:
            raise self._error
        if self._state == _DONE:
            return self._root
        if self._state == _NUMBER and not self._stack and self._num_state in _NUM_ACCEPT:
            return self._number_value("".join(self._num_parts), self._num_start)
        raise self._make_error(f"unexpected end of JSON text: {self._expecting()}", self._size)

    # -- internals ---------------------------------------------------------------------------

    def _expecting(self) -> str:
        state = self._state
        if self._carry:
            return "an unfinished escape or literal"
        if state == _STRING:
            return "an unterminated string"
        if state == _NUMBER:
            return f"expected {_NUM_EXPECT.get(self._num_state, 'more of a number')}"
        if state == _VALUE and not self._has_root:
            return "no JSON value"
        if state in (_KEY_OR_END, _KEY, _COLON) or (state == _AFTER and self._stack):
            return f"{len(self._stack)} unclosed bracket(s)"
        return "expected a value"

    def _make_error(self, message: str, position: int) -> PartialJSONError:
        text = self.text
        lo = max(0, position - _EXCERPT_RADIUS)
        return PartialJSONError(message, position, excerpt(text[lo : position + _EXCERPT_RADIUS]))

    def _fail(self, message: str, position: int) -> None:
        self._state = _FAILED
        self._error = self._make_error(message, position)

    def _flush_string(self) -> None:
        """Copy the string being built into the tree (strings are immutable, so it is replaced)."""
        parts = self._parts
        s = parts[0] if len(parts) == 1 else "".join(parts)
        parts[:] = [s]
        target = self._str_target
        if target is None:
            self._root = s
        else:
            target[self._str_key] = s
        self._dirty = False

    def _attach(self, value: Any) -> None:
        """Place a newly visible value in the current container (or as the root)."""
        stack = self._stack
        if not stack:
            self._root = value
            self._has_root = True
            self._str_target = None
            return
        top = stack[-1]
        if type(top) is list:
            self._str_key = len(top)
            top.append(value)
        else:
            key = self._keys[-1]
            self._str_key = key
            top[key] = value  # type: ignore[call-overload]
        self._str_target = top

    def _number_value(self, text: str, position: int) -> Any:
        if self._num_state in (2, 3):
            try:
                return int(text)
            except ValueError as exc:  # more digits than sys.get_int_max_str_digits() allows
                raise self._make_error(f"integer too long: {exc}", position) from None
        return float(text)

    def _end_value(self) -> None:
        self._state = _AFTER if self._stack else _DONE

    def _scan(self, data: str, base: int) -> None:
        i = 0
        n = len(data)
        while i < n:
            state = self._state
            if state == _STRING:
                j = _STR_RUN.match(data, i).end()  # type: ignore[union-attr]
                if j > i:
                    self._parts.append(data[i:j])
                    self._dirty = not self._str_is_key
                    i = j
                    if i == n:
                        return
                c = data[i]
                if c == '"':
                    i += 1
                    self._end_string()
                elif c == "\\":
                    j = self._escape(data, i, base)
                    if j < 0:
                        self._carry = data[i:]
                        return
                    i = j
                else:
                    raise _Fail(f"control character {c!r} in string", base + i)
                continue
            c = data[i]
            if state == _NUMBER:
                nxt = _num_step(self._num_state, c)
                if nxt >= 0:
                    self._num_state = nxt
                    j = _DIGIT_RUN.match(data, i + 1).end() if nxt in (3, 5, 8) else i + 1  # type: ignore[union-attr]
                    self._num_parts.append(data[i:j])
                    i = j
                    continue
                if self._num_state not in _NUM_ACCEPT:
                    raise _Fail(
                        f"invalid number: expected {_NUM_EXPECT[self._num_state]}, got {c!r}",
                        base + i,
                    )
                text = "".join(self._num_parts)
                try:
                    number = self._number_value(text, self._num_start)
                except PartialJSONError as exc:
                    raise _Fail(exc.message, exc.position) from None
                self._attach(number)
                self._end_value()
                continue  # c is handled in the new state
            if c in _WS:
                i = _WS_RUN.match(data, i).end()  # type: ignore[union-attr]
                continue
            if state == _VALUE or state == _VALUE_OR_END:
                if c == "{" or c == "[":
                    if len(self._stack) >= self._max_depth:
                        raise _Fail(f"nesting deeper than max_depth ({self._max_depth})", base + i)
                    container: dict[str, Any] | list[Any] = {} if c == "{" else []
                    self._attach(container)
                    self._stack.append(container)
                    if c == "{":
                        self._keys.append("")
                        self._state = _KEY_OR_END
                    else:
                        self._state = _VALUE_OR_END
                    i += 1
                elif c == '"':
                    self._parts = []
                    self._str_is_key = False
                    self._attach("")
                    self._state = _STRING
                    i += 1
                elif c == "-" or c in _DIGITS:
                    self._num_parts = []
                    self._num_state = 0
                    self._num_start = base + i
                    self._state = _NUMBER
                elif c in _LITERALS:
                    word, literal = _LITERALS[c]
                    got = data[i : i + len(word)]
                    if got == word:
                        self._attach(literal)
                        self._end_value()
                        i += len(word)
                    else:
                        for k, ch in enumerate(got):
                            if ch != word[k]:
                                raise _Fail(f"invalid literal: expected {word!r}", base + i + k)
                        self._carry = got  # a prefix of the word: wait for the rest
                        return
                elif c == "]" and state == _VALUE_OR_END:
                    self._close()
                    i += 1
                else:
                    raise _Fail(f"expected a JSON value, got {c!r}", base + i)
            elif state == _KEY_OR_END or state == _KEY:
                if c == '"':
                    self._parts = []
                    self._str_is_key = True
                    self._state = _STRING
                elif c == "}" and state == _KEY_OR_END:
                    self._close()
                else:
                    raise _Fail(f"expected a string key, got {c!r}", base + i)
                i += 1
            elif state == _COLON:
                if c != ":":
                    raise _Fail(f"expected ':' after object key, got {c!r}", base + i)
                self._state = _VALUE
                i += 1
            elif state == _AFTER:
                top = self._stack[-1]
                is_list = type(top) is list
                if c == ",":
                    self._state = _VALUE if is_list else _KEY
                elif c == ("]" if is_list else "}"):
                    self._close()
                else:
                    closer = "]" if is_list else "}"
                    raise _Fail(f"expected ',' or {closer!r}, got {c!r}", base + i)
                i += 1
            elif state == _DONE:
                raise _Fail(f"extra data after the JSON value: {c!r}", base + i)
            else:  # pragma: no cover - _FAILED never scans
                raise AssertionError(state)

    def _close(self) -> None:
        if type(self._stack.pop()) is dict:
            self._keys.pop()
        self._end_value()

    def _end_string(self) -> None:
        parts = self._parts
        s = parts[0] if len(parts) == 1 else "".join(parts)
        if self._str_is_key:
            self._keys[-1] = s
            self._state = _COLON
        else:
            target = self._str_target
            if target is None:
                self._root = s
            else:
                target[self._str_key] = s
            self._dirty = False
            self._end_value()
        self._parts = []

    def _escape(self, data: str, i: int, base: int) -> int:
        """Decode the escape at ``data[i] == '\\'``; return the index after it, or -1 if cut off.

        A high surrogate escape is held back until the next six characters show whether a low
        surrogate escape follows, so a pair split across deltas is shown once, whole (as
        ``json.loads`` joins pairs and keeps lone surrogates as they are).
        """
        n = len(data)
        if i + 1 >= n:
            return -1
        e = data[i + 1]
        simple = _SIMPLE_ESCAPES.get(e)
        if simple is not None:
            self._append(simple)
            return i + 2
        if e != "u":
            raise _Fail("invalid escape " + repr("\\" + e), base + i + 1)
        cp = self._hex4(data, i, base)
        if cp < 0:
            return -1
        j = i + 6
        if 0xD800 <= cp <= 0xDBFF:
            if j >= n or (data[j] == "\\" and (j + 1 >= n or data[j + 1] == "u")):
                low = self._hex4(data, j, base) if j < n and j + 1 < n else -1
                if low < 0:
                    return -1
                if 0xDC00 <= low <= 0xDFFF:
                    self._append(chr(0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)))
                    return j + 6
        self._append(chr(cp))
        return j

    def _hex4(self, data: str, i: int, base: int) -> int:
        """The code point of ``\\uXXXX`` at *i*, or -1 if cut off; invalid hex fails at once."""
        digits = data[i + 2 : i + 6]
        if len(digits) == 4 and _HEX4.fullmatch(digits):
            return int(digits, 16)
        if len(digits) < 4 and _HEX_PREFIX.fullmatch(digits):
            return -1
        bad = next(k for k, ch in enumerate(digits) if ch not in "0123456789abcdefABCDEF")
        raise _Fail("invalid \\u escape: expected 4 hex digits", base + i + 2 + bad)

    def _append(self, s: str) -> None:
        self._parts.append(s)
        self._dirty = not self._str_is_key
