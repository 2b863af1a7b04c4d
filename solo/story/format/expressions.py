"""The condition language of adventures, parsed by our own parser into a tree.

Authors write conditions such as ``has("rope") and not visited("cellar")`` or
``gold >= 3 and disposition("guard") > 0``. They are parsed once, when the
adventure loads, into tuples; evaluation walks the tree against a context.
Nothing here ever hands text to Python's own evaluator, and size and depth
are limited so a hostile file cannot hang or exhaust the loader.

Grammar (lowest precedence first)::

    expr    := or
    or      := and ("or" and)*
    and     := not ("and" not)*
    not     := "not" not | compare
    compare := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
    sum     := product (("+" | "-") product)*
    product := unary (("*" | "/" | "%") unary)*
    unary   := "-" unary | atom
    atom    := NUMBER | STRING | "true" | "false" | NAME | NAME "(" args ")" | "(" expr ")"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

MAX_LENGTH = 1000
MAX_DEPTH = 40
MAX_NODES = 400

#: name -> (min args, max args); the evaluator supplies the meaning.
FUNCTIONS: dict[str, tuple[int, int]] = {
    "has": (1, 1),  # the party carries an item
    "visited": (1, 1),  # a scene was entered at least once
    "visits": (1, 1),  # how many times a scene was entered
    "chosen": (1, 1),  # how many times a choice was taken: chosen("scene/choice id or position")
    "flag": (1, 1),  # a flag, by name given as text
    "counter": (1, 1),  # a counter, by name given as text
    "skill": (1, 2),  # best effective skill in the party (skill[, focus])
    "pool": (1, 1),  # the acting character's current Pool
    "pool_max": (1, 1),
    "luck": (0, 0),  # the acting character's Luck
    "tag": (1, 1),  # someone in the party has the Tag
    "disposition": (1, 1),  # an NPC's disposition modifier (-40..40)
    "npc_status": (1, 1),  # "in", "out", "fled", "surrendered", "comae", or "" if never met
    "used_luck": (1, 1),  # how often the party spent Luck on "contact" or "find" at the prompt
    "tension": (0, 0),  # the oracle's tension track
    "party_size": (0, 0),
    "fallen": (0, 0),  # how many PCs have left the scenario, in comae or dead
    "unarmed": (0, 0),  # how many PCs still playing fight with empty hands
    "min": (2, 8),
    "max": (2, 8),
}


#: The largest number a condition may write: every whole number of an adventure is within ±1,000,000
#: (solo.story.format.readers.MAX_WHOLE, docs/limits.md; a test holds the two equal).
MAX_LITERAL = 1_000_000


class ExpressionError(ValueError):
    """A condition that cannot be parsed; ``column`` is 1-based within the expression."""

    def __init__(self, message: str, column: int | None = None):
        self.message = message
        self.column = column
        super().__init__(f"{message}" + (f" (at character {column} of the expression)" if column else ""))


_TOKEN = re.compile(
    r"""\s*(?:
        (?P<number>\d+)
      | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
      | (?P<op>==|!=|<=|>=|<|>|\+|-|\*|/|%|\(|\)|,)
      | (?P<name>[A-Za-z_][A-Za-z0-9_.]*)
    )""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    kind: str
    value: Any
    column: int


#: What a call of a condition function may raise on a wrong argument: the call then reads as 0.
CALL_FAILS = (KeyError, TypeError, ValueError, AttributeError, IndexError)

#: Operators from other languages an author types by habit, and the condition language's own: the longer first, so
#: "=>" is read before "=" ("evidence => 2" was answered "unexpected character '='" alone: a new GM).
_SLIPS = (("=>", ">="), ("=<", "<="), ("=!", "!="), ("&&", "and"), ("||", "or"), ("=", "=="), ("!", "not"),
          ("&", "and"), ("|", "or"))


def tokenize(text: str) -> list[Token]:
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"the condition is longer than {MAX_LENGTH} characters")
    tokens: list[Token] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if not match:
            col = pos + 1 + (len(text[pos:]) - len(text[pos:].lstrip()))
            # "!==" and "===" tokenize as "!=" or "==" and then fail on their last "=": read back over it
            tripled = text[col - 3:col] if col >= 3 else ""
            slip = {"!==": "!=", "===": "=="}.get(tripled) or next(
                (right for wrong, right in _SLIPS if text.startswith(wrong, col - 1)), None)
            hint = f" (did you mean {slip!r}?)" if slip else ""
            raise ExpressionError(f"unexpected character {text[col - 1]!r}{hint}", col)
        kind = match.lastgroup
        assert kind is not None  # every alternative of _TOKEN is a named group
        raw = match.group(kind)
        column = match.start(kind) + 1
        if kind == "number":
            if len(raw) > len(str(MAX_LITERAL)) or int(raw) > MAX_LITERAL:  # (a 4,300-digit int is refused by Python)
                raise ExpressionError(f"{raw[:12]}{'…' if len(raw) > 12 else ''} is beyond ±{MAX_LITERAL:,}, as "
                                      "every whole number of an adventure is", column)
            value: Any = int(raw)
        elif kind == "string":
            value = re.sub(r"\\(.)", r"\1", raw[1:-1])
        else:
            value = raw
        if kind == "name" and raw in ("and", "or", "not", "true", "false"):
            kind = raw if raw in ("and", "or", "not") else "bool"
            value = raw == "true" if kind == "bool" else raw
        tokens.append(Token(kind, value, column))
        pos = match.end()
    tokens.append(Token("end", None, len(text) + 1))
    return tokens


#: Nodes whose value is always a number (a bare name is a counter, or a flag read as 0 or 1).
_NUMBERS = ("num", "arith", "neg", "name")


class _Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.i = 0
        self.nodes = 0
        self.depth = 0

    def peek(self) -> Token:
        return self.tokens[self.i]

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def expect(self, kind: str, value=None) -> Token:
        token = self.take()
        if token.kind != kind or (value is not None and token.value != value):
            want = value or kind
            got = "the end" if token.kind == "end" else repr(token.value)
            raise ExpressionError(f"expected {want!r} but found {got}", token.column)
        return token

    def node(self, *parts):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise ExpressionError(f"the condition is too large (more than {MAX_NODES} parts)")
        return parts

    def enter(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExpressionError(f"the condition nests deeper than {MAX_DEPTH} levels", self.peek().column)

    def parse(self):
        tree = self.or_()
        token = self.peek()
        if token.kind != "end":
            raise ExpressionError(f"unexpected {token.value!r}", token.column)
        return tree

    def or_(self):
        self.enter()
        left = self.and_()
        while self.peek().kind == "or":
            self.take()
            left = self.node("or", left, self.and_())
        self.depth -= 1
        return left

    def and_(self):
        left = self.not_()
        while self.peek().kind == "and":
            self.take()
            left = self.node("and", left, self.not_())
        return left

    def not_(self):
        if self.peek().kind == "not":
            self.take()
            self.enter()
            result = self.node("not", self.not_())
            self.depth -= 1
            return result
        return self.compare()

    def compare(self):
        start = self.peek().column
        left = self.sum()
        token = self.peek()
        if token.kind == "op" and token.value in ("==", "!=", "<", "<=", ">", ">="):
            self.take()
            at = self.peek().column
            right = self.sum()
            for text, number, column in ((left, right, start), (right, left, at)):
                if text[0] == "str" and number[0] in _NUMBERS:  # never true as a game reads it: a GM's quoted '3'
                    always = "always" if token.value == "!=" else "never"
                    raise ExpressionError(f"{text[1]!r} is text, compared with a number: {always} true (write a "
                                          f"number without quotes)", column)
            left = self.node("cmp", token.value, left, right)
            nxt = self.peek()
            if nxt.kind == "op" and nxt.value in ("==", "!=", "<", "<=", ">", ">="):
                raise ExpressionError("comparisons cannot be chained; join them with 'and'", nxt.column)
        return left

    def sum(self):
        left = self.product()
        while self.peek().kind == "op" and self.peek().value in ("+", "-"):
            op = self.take().value
            left = self.node("arith", op, left, self.product())
        return left

    def product(self):
        left = self.unary()
        while self.peek().kind == "op" and self.peek().value in ("*", "/", "%"):
            op = self.take().value
            left = self.node("arith", op, left, self.unary())
        return left

    def unary(self):
        if self.peek().kind == "op" and self.peek().value == "-":
            self.take()
            self.enter()
            result = self.node("neg", self.unary())
            self.depth -= 1
            return result
        return self.atom()

    def atom(self):
        token = self.take()
        if token.kind == "number":
            return self.node("num", token.value)
        if token.kind == "string":
            return self.node("str", token.value)
        if token.kind == "bool":
            return self.node("bool", token.value)
        if token.kind == "op" and token.value == "(":
            self.enter()
            inner = self.or_()
            self.depth -= 1
            self.expect("op", ")")
            return inner
        if token.kind == "name":
            if self.peek().kind == "op" and self.peek().value == "(":
                return self.call(token)
            return self.node("name", token.value)
        got = "the end" if token.kind == "end" else repr(token.value)
        raise ExpressionError(f"expected a value but found {got}", token.column)

    def call(self, name: Token):
        if name.value not in FUNCTIONS:
            from ...errors import did_you_mean

            raise ExpressionError(f"unknown function {name.value!r}{did_you_mean(name.value, FUNCTIONS)}", name.column)
        self.take()  # (
        args = []
        if not (self.peek().kind == "op" and self.peek().value == ")"):
            self.enter()
            args.append(self.or_())
            while self.peek().kind == "op" and self.peek().value == ",":
                self.take()
                args.append(self.or_())
            self.depth -= 1
        self.expect("op", ")")
        lo, hi = FUNCTIONS[name.value]
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ExpressionError(f"{name.value}() takes {want} argument{'' if hi == 1 else 's'}, got {len(args)}",
                                  name.column)
        return self.node("call", name.value, tuple(args))


@dataclass(frozen=True)
class Condition:
    """A parsed condition: its source text and its tree."""

    source: str
    tree: tuple

    def names(self) -> set[str]:
        """Bare names read (flags or counters), for the checker's read-but-never-set report."""
        return set(_collect(self.tree, "name"))

    def calls(self) -> list[tuple[str, tuple]]:
        """(function, literal args) pairs, for checking scene, item and NPC references."""
        out = []

        def walk(node):
            if node[0] == "call":
                out.append((node[1], tuple(a[1] if a[0] in ("str", "num") else None for a in node[2])))
            for part in node[1:]:
                if isinstance(part, tuple) and part and isinstance(part[0], str):
                    walk(part)
                elif isinstance(part, tuple):
                    for p in part:
                        if isinstance(p, tuple):
                            walk(p)

        walk(self.tree)
        return out

    @cached_property
    def _run(self) -> Callable[[Context], Any]:
        return _compiled(self.tree)  # kept here: a tuple's hash is worked out again at every look-up

    def evaluate(self, context: Context) -> bool:
        return _truthy(self._run(context))


def _collect(node, kind):
    if node[0] == kind:
        yield node[1]
    for part in node[1:]:
        if isinstance(part, tuple) and part and isinstance(part[0], str):
            yield from _collect(part, kind)
        elif isinstance(part, tuple):
            for p in part:
                if isinstance(p, tuple):
                    yield from _collect(p, kind)


def parse_condition(text: str) -> Condition:
    """Parse ``text`` or raise :class:`ExpressionError` saying where it went wrong."""
    if not isinstance(text, str):
        raise ExpressionError("a condition must be text")
    if not text.strip():
        raise ExpressionError("the condition is empty")
    return Condition(text, _Parser(text).parse())


class Context:
    """What a condition can see. The game supplies these lookups; tests can fake them."""

    def __init__(self, *, names: Callable[[str], Any] | None = None, functions: dict[str, Callable] | None = None):
        self.names = names or (lambda name: 0)
        self.functions = functions or {}


def _truthy(value) -> bool:
    return bool(value)


def _number(value, what: str):
    """Numbers for arithmetic; anything else counts as 0, so a condition never stops a game."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, float)):
        return value
    return 0


_ORDER: dict[str, Callable[[Any, Any], bool]] = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
                                                   ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


@lru_cache(maxsize=65_536)
def _compiled(node) -> Callable[[Context], Any]:
    """The node as a function of the context, made once per node (a tree is a tuple of tuples, so a key): a game
    asks the same conditions every turn, and walking the tree each time was the most of a small story's turn.
    Closures over our own functions, never Python made from the text."""
    kind = node[0]
    if kind in ("num", "str", "bool"):
        value = node[1]
        return lambda ctx: value
    if kind == "name":
        name = node[1]
        return lambda ctx: ctx.names(name)
    if kind == "not":
        inner = _compiled(node[1])
        return lambda ctx: not _truthy(inner(ctx))
    if kind in ("and", "or"):
        left, right = _compiled(node[1]), _compiled(node[2])
        if kind == "and":
            return lambda ctx: _truthy(left(ctx)) and _truthy(right(ctx))
        return lambda ctx: _truthy(left(ctx)) or _truthy(right(ctx))
    if kind == "neg":
        inner = _compiled(node[1])
        return lambda ctx: -_number(inner(ctx), "'-'")
    if kind == "arith":
        op, left, right = node[1], _compiled(node[2]), _compiled(node[3])

        def arith(ctx):
            a, b = _number(left(ctx), op), _number(right(ctx), op)
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if b == 0:
                return 0  # a condition never crashes a game: dividing by zero gives 0
            return a // b if op == "/" else a % b

        return arith
    if kind == "cmp":
        op, left, right = node[1], _compiled(node[2]), _compiled(node[3])
        if op == "==":
            return lambda ctx: left(ctx) == right(ctx)
        if op == "!=":
            return lambda ctx: left(ctx) != right(ctx)
        order = _ORDER[op]

        def compare(ctx):
            a, b = left(ctx), right(ctx)
            if isinstance(a, str) or isinstance(b, str):
                if not (isinstance(a, str) and isinstance(b, str)):
                    return False
            else:
                a, b = _number(a, op), _number(b, op)
            return order(a, b)

        return compare
    if kind == "call":
        name, parts = node[1], tuple(_compiled(a) for a in node[2])

        def call(ctx):
            args = [f(ctx) for f in parts]
            if name == "min":
                return min(_number(a, "min()") for a in args)
            if name == "max":
                return max(_number(a, "max()") for a in args)
            fn = ctx.functions.get(name)
            if fn is None:
                return 0
            try:
                return fn(*args)
            except CALL_FAILS:
                return 0  # a wrong argument (a number where a name belongs) reads as 0, never a crash

        return call
    raise ExpressionError(f"unknown node {kind!r}")


def value_function(node: tuple) -> Callable[[Context], Any]:
    """The value of one node of a condition's tree, not only its truth, as a function of the context, made once:
    ``solo prove`` tells states apart by the values of the names and calls conditions read (a count, a status),
    as the engine sees them, and reads the same nodes of thousands of states."""
    return _compiled(node)
