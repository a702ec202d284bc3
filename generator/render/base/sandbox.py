"""The one Jinja environment for untrusted templates: sandboxed, and with limits.

Layouts, rulebooks, sheets and the site template are data that anyone may
send. Jinja's immutable sandbox already stops attribute tricks; this class adds
limits on what a template may cost, so that `range(10**9)`, `'x' * 10**9`,
`2.0**10000`, `lipsum(10**6)`, a format width of 2e9 or a macro calling itself
end in one `TemplateLimit` (a Jinja `SecurityError`, which callers already turn
into a file:line error) within a fraction of a second, not in a hung build or
an exhausted memory.

The limits are counted, never timed, so the same template fails the same way on
every machine: each render gets a budget of operations (calls, arithmetic, range
steps), output is capped in size while it streams, numbers in bits, strings and
lists in length, and calls in depth.
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from types import CodeType
from typing import Any

from jinja2 import BaseLoader, StrictUndefined, Template, TemplateSyntaxError, Undefined, nodes, pass_eval_context
from jinja2.environment import TemplateExpression
from jinja2.parser import Parser
from jinja2.runtime import Context
from jinja2.runtime import new_context as runtime_new_context
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from jinja2.utils import missing as _MISSING

from generator.errors import Location, closest
from generator.render.base.template_cache import CodeCache, environment_fingerprint

MAX_OPERATIONS = 500_000  # calls, operators and range steps in one render
MAX_OUTPUT = 2_000_000  # characters one render may produce
MAX_SEQUENCE = 100_000  # characters of a string, or entries of a list, that one operation may build
MAX_RANGE = 10_000  # entries of one range()
MAX_INT_BITS = 1024  # about 300 decimal digits: far beyond any card value
MAX_DEPTH = 40  # nested calls (macros calling macros)
MAX_WIDTH = 1_000  # a format width or precision
MAX_LIPSUM = 20  # paragraphs of placeholder text
MAX_NESTING = 100  # brackets inside brackets in one expression (Python's parser gives up near 1,000 frames)
# str methods whose result can be far longer than the string (widths, repeats, joins): sized before they run
GROWING = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs", "replace", "join", "format", "format_map"})
COUNTED = "__counted_loop__"  # the global each `for` loop iterates through


class NamedUndefined(StrictUndefined):
    """StrictUndefined that says what was missing in the data's words, with the likely name: a designer who
    writes `game.titel` or `card.nam` reads "Game has no 'titel' (did you mean 'title'?)", not
    "'generator.model.game.Game object' has no attribute 'titel'" or "'collections.ChainMap object'..."."""

    __slots__ = ()

    @property
    def _undefined_message(self) -> str:
        owner, name = self._undefined_obj, self._undefined_name
        if self._undefined_hint or owner is _MISSING or not isinstance(name, str):
            return str(super()._undefined_message)
        names = _public_names(owner)
        message = f"{'the data' if isinstance(owner, Mapping) else type(owner).__name__} has no {name!r}"
        close = closest(name, names)
        if close:
            return f"{message} (did you mean {close!r}?)"
        if 0 < len(names) <= 12:
            return f"{message} (there: {', '.join(names)})"
        return message

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> Any:
        """Jinja's failure, carrying the mapping that lacks the name (`owner`): a document names the data file
        that lacks the key, not only the template line that first read it."""
        error = self._undefined_exception(self._undefined_message)
        error.owner = None if self._undefined_obj is _MISSING else self._undefined_obj  # type: ignore[attr-defined]
        error.key = self._undefined_name  # type: ignore[attr-defined]
        raise error


# Jinja binds its dunder methods (str(), iteration, arithmetic...) to the base class's failure function itself
for _name, _value in [*vars(Undefined).items(), *vars(StrictUndefined).items()]:
    if _value is Undefined._fail_with_undefined_error and _name != "_fail_with_undefined_error":
        setattr(NamedUndefined, _name, NamedUndefined._fail_with_undefined_error)


def lacking_path(sections: Mapping[str, Any], error: BaseException) -> tuple[str, str] | None:
    """(section, dotted path) of the mapping an undefined name was looked up in, when it is part of one of
    `sections` (the game's `rules` and `theme`, as a template sees them) and the name is not a likely
    misspelling of a key it has: a data file cut short, not a template's typo. Plain strings: it travels
    with an error between processes."""
    owner, key = getattr(error, "owner", None), getattr(error, "key", None)
    if not isinstance(owner, Mapping) or not isinstance(key, str):
        return None
    if closest(key, [str(k) for k in owner]) is not None:
        return None
    for section in ("rules", "theme"):
        path = _path_to(sections.get(section), owner, "", 0)
        if path is not None:
            return section, path
    return None


def where_data_lacks(game: Any, error: BaseException) -> Location | None:
    """The game.yaml line of the mapping that lacks an undefined name (`lacking_path`, or the error's own
    `data_path`), or None when the error is not about the game's data."""
    from generator.model import Game

    if not isinstance(game, Game):
        return None
    found = getattr(error, "data_path", None) or lacking_path({"rules": game.rules, "theme": game.theme}, error)
    if found is None:
        return None
    section, path = found
    if section == "rules":
        return game.rule_location(path)
    while path not in game.theme_locations and path:
        path = path.rpartition(".")[0]
    return game.theme_locations.get(path, Location(game.location.file))


def _path_to(node: Any, owner: Mapping[Any, Any], path: str, depth: int) -> str | None:
    """The dotted path of `owner` inside `node` (found by identity), or None."""
    if node is owner:
        return path
    if isinstance(node, Mapping) and depth < 16:
        for key, value in node.items():
            found = _path_to(value, owner, f"{path}.{key}" if path else str(key), depth + 1)
            if found is not None:
                return found
    return None


def _public_names(owner: Any) -> list[str]:
    """The names a template may reach on `owner`: a mapping's keys, else its public attributes."""
    if isinstance(owner, Mapping):
        return sorted(str(key) for key in owner if not str(key).startswith("_"))
    names = {name for name in dir(owner) if not name.startswith("_")}
    fields = getattr(owner, "fields", None)  # an item: its fields read as attributes (item.payout)
    if isinstance(fields, Mapping):
        names |= {str(key) for key in fields}
    return sorted(names)


class TemplateLimit(SecurityError):
    """A template asked for more than a card, a rulebook or a page can need."""


@dataclass
class _Budget:
    left: int = MAX_OPERATIONS
    depth: int = 0

    def spend(self, amount: int = 1) -> None:
        self.left -= amount
        if self.left < 0:
            raise TemplateLimit(f"the template does too much work (more than {MAX_OPERATIONS} operations); "
                                "simplify its loops")


_BUDGET: ContextVar[_Budget | None] = ContextVar("template_budget", default=None)
_WIDTH = re.compile(r"(\d+)")
_TAG = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d*)(?:\.(\*|\d*))?")


def _budget() -> _Budget:
    budget = _BUDGET.get()
    if budget is None:  # a template used without new_context (never in our code): start one
        budget = _Budget()
        _BUDGET.set(budget)
    return budget


def _check_number(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
        raise TemplateLimit(f"a number over {MAX_INT_BITS} bits is too large for a template")
    if isinstance(value, float) and not math.isfinite(value):
        raise TemplateLimit(f"the result {value} is not a finite number")
    return value


def _size(value: Any) -> int | None:
    return len(value) if isinstance(value, (str, list, tuple, bytes)) else None


def _check_format(text: str) -> None:
    """A `str.format` string: widths from the arguments ('{:{}}') are refused, literal ones checked."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError:
        return  # str.format itself will refuse it, cheaply
    for _literal, _field, spec, _conversion in parts:
        if spec and "{" in spec:
            raise TemplateLimit("a format width taken from an argument ('{:{}}') is not allowed in templates")
        _check_spec(spec or "")


def _check_percent(text: str) -> None:
    """A `%` format string: '*' widths are refused, and each conversion's width and precision checked."""
    for width, precision in _PERCENT.findall(text):
        if "*" in (width, precision):
            raise TemplateLimit("a '*' width taken from an argument is not allowed in templates")
        _check_spec(f"{width}.{precision}")


def _check_spec(spec: str) -> None:
    """Refuse format specifications with huge widths or precisions ('{:>2000000000}', '%.2000000000f')."""
    for digits in _WIDTH.findall(spec):
        if len(digits) > 4 or int(digits) > MAX_WIDTH:
            raise TemplateLimit(f"a format width or precision of {digits[:12]} is too large (at most {MAX_WIDTH})")


class LimitedRange:
    """range() for templates: at most MAX_RANGE entries, each step paid from the render's budget."""

    def __init__(self, *args: int) -> None:
        for arg in args:
            if not isinstance(arg, int) or isinstance(arg, bool):
                raise TemplateLimit(f"range() takes whole numbers, got {arg!r}")
        self._range = range(*args)
        if len(self._range) > MAX_RANGE:
            raise TemplateLimit(f"range of {len(self._range)} entries is too large (at most {MAX_RANGE})")

    def __iter__(self) -> Iterator[int]:
        budget = _budget()
        for value in self._range:
            budget.spend()
            yield value

    def __len__(self) -> int:
        return len(self._range)

    def __repr__(self) -> str:
        return repr(self._range)


class LimitedTemplate(Template):
    """A template whose every top-level render (or expression evaluation) starts a fresh budget."""

    def new_context(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: Any = None) -> Context:
        if not shared and vars is not None:  # a render or an expression; includes share the caller's budget
            _BUDGET.set(_Budget())
        # Jinja copies the template's globals (a ChainMap over the environment's) into every
        # context, twice; a ChainMap iterates slowly, and a card face runs dozens of expressions.
        # A flat copy, made once per template, holds the same names: Jinja's globals may not
        # change once templates are loaded.
        flat = self.__dict__.get("_flat_globals")
        if flat is None:
            flat = self.__dict__["_flat_globals"] = dict(self.globals)
        return runtime_new_context(self.environment, self.name, self.blocks, vars, shared, flat, locals)


    def render(self, *args: Any, **kwargs: Any) -> str:
        """Template.render; a template that includes or extends itself, directly or through others, is one
        TemplateLimit, not Python's RecursionError."""
        try:
            return super().render(*args, **kwargs)
        except RecursionError:
            raise TemplateLimit("templates include or extend each other without end (does a template include "
                                "or extend itself?)") from None


class _OneFile(BaseLoader):
    """The loader of environments without one: a template is one file, so `{% include %}`, `{% import %}` and
    `{% extends %}` are refused by name (a SecurityError, reported at the template's line) rather than
    failing with Jinja's "no loader for this environment"."""

    def get_source(self, environment: Any, template: str) -> Any:
        raise SecurityError(f"{{% include %}}, {{% import %}} and {{% extends %}} are not supported (asked for "
                            f"{template!r}): a template is one file; write what it needs in it")


class LimitedEnvironment(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox with counted limits (see the module docstring)."""

    template_class = LimitedTemplate
    intercepted_binops = frozenset({"*", "**", "+", "%", "//", "/"})
    intercepted_unops = frozenset({"-"})

    def __init__(self, *, code_cache: CodeCache | None = None, **options: Any) -> None:
        options.setdefault("loader", _OneFile())
        super().__init__(**options)
        self.code_cache = code_cache  # compiled code kept between processes (see template_cache)
        self._fingerprint: bytes | None = None
        self.globals["range"] = LimitedRange
        self.globals["lipsum"] = _lipsum
        self.filters["format"] = _format
        self.filters["center"] = _center
        self.filters["indent"] = _indent
        self.filters["replace"] = _replace
        self.filters["join"] = _join
        self.concat = _concat  # type: ignore[method-assign]
        self.globals[COUNTED] = _counted

    def compile(  # type: ignore[override]
        self, source: str | nodes.Template, name: str | None = None, filename: str | None = None,
        raw: bool = False, defer_init: bool = False,
    ) -> str | CodeType:
        """Jinja's compile, with the resulting code taken from (and kept in) the code cache when one is set."""
        if raw:
            return super().compile(source, name, filename, raw=True, defer_init=defer_init)
        if self.code_cache is None or not isinstance(source, str):
            return super().compile(source, name, filename, raw=False, defer_init=defer_init)
        if self._fingerprint is None:  # filters may be added after __init__, so read them at first compile
            self._fingerprint = environment_fingerprint(self)
        text = source

        def compile_now() -> CodeType:
            return super(LimitedEnvironment, self).compile(text, name, filename, raw=False, defer_init=defer_init)

        return self.code_cache.compiled((text, name, filename, defer_init), self._fingerprint, compile_now)

    def compile_expression(self, source: str, undefined_to_none: bool = True) -> TemplateExpression:
        """Jinja's compile_expression, its code taken from (and kept in) the code cache like a template's:
        Jinja compiles an expression from a syntax tree, which `compile` cannot look up by its text."""
        _check_nesting("{{" + source + "}}", None, None)
        if self.code_cache is None:
            return super().compile_expression(source, undefined_to_none)
        if self._fingerprint is None:
            self._fingerprint = environment_fingerprint(self)

        def compile_now() -> CodeType:
            parser = Parser(self, source, state="variable")
            try:  # as Jinja's compile_expression parses
                expr = parser.parse_expression()
                if not parser.stream.eos:
                    raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno, None, None)
                expr.set_environment(self)
            except TemplateSyntaxError:
                self.handle_exception(source=source)
            body = [nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)]
            code = super(LimitedEnvironment, self).compile(nodes.Template(body, lineno=1))
            assert isinstance(code, CodeType)
            return code

        code = self.code_cache.compiled(("expression", source), self._fingerprint, compile_now)
        template = self.template_class.from_code(self, code, self.make_globals(None), None)
        return TemplateExpression(template, undefined_to_none)

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Every `{% for %}` pays one operation per step, whatever it loops over (nested loops
        over a long list cannot hide from the budget)."""
        _check_nesting(source, name, filename)
        try:
            tree = super()._parse(source, name, filename)
        except RecursionError:  # nesting the bracket count above does not see (blocks inside blocks...)
            raise TemplateSyntaxError("the template is nested too deeply to read", 1, name, filename) from None
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.Name(COUNTED, "load", lineno=loop.lineno), [loop.iter], [], None, None,
                                   lineno=loop.lineno)
        return tree

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        _budget().spend()
        if operator == "**" and isinstance(left, (int, float)) and isinstance(right, (int, float)):
            if isinstance(right, int) and isinstance(left, int) and right > 0 and \
                    abs(left) > 1 and right * math.log2(abs(left)) > MAX_INT_BITS:
                raise TemplateLimit(f"{left} ** {right} is too large for a template")
            if (isinstance(left, float) or isinstance(right, float)) and \
                    (abs(right) > MAX_INT_BITS or (left == 0 and right < 0)):
                raise TemplateLimit(f"{left} ** {right} is out of range for a template")
        if operator == "*":
            for sized, times in ((left, right), (right, left)):
                length = _size(sized)
                if length is not None and isinstance(times, int) and length * max(times, 0) > MAX_SEQUENCE:
                    raise TemplateLimit(f"repeating a {type(sized).__name__} to {length * times} entries "
                                        f"is too large (at most {MAX_SEQUENCE})")
            if isinstance(left, int) and isinstance(right, int) and \
                    left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise TemplateLimit("the product is too large for a template")
        if operator == "+":
            sizes = (_size(left), _size(right))
            if sizes[0] is not None and sizes[1] is not None and sizes[0] + sizes[1] > MAX_SEQUENCE:
                raise TemplateLimit(f"joining to {sizes[0] + sizes[1]} entries is too large (at most {MAX_SEQUENCE})")
        if operator == "%" and isinstance(left, str):
            _check_percent(left)
        if operator in ("/", "//", "%") and isinstance(right, (int, float)) and right == 0 and \
                isinstance(left, (int, float)):
            raise TemplateLimit(f"division by zero ({left} {operator} 0)")
        try:
            result = super().call_binop(context, operator, left, right)
        except OverflowError:
            raise TemplateLimit(f"{left} {operator} {right} is out of range for a template") from None
        return _check_number(result)

    def call_unop(self, context: Context, operator: str, arg: Any) -> Any:
        _budget().spend()
        return super().call_unop(context, operator, arg)

    def wrap_str_format(self, value: Any) -> Any:
        """`'{:>9}'.format(...)` in a template: the format string is checked before it runs."""
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text, method = str(value.__self__), value.__name__
        _check_format(text)

        def sized(*args: Any, **kwargs: Any) -> Any:
            _check_growth(text, method, args, kwargs)
            return wrapped(*args, **kwargs)

        return sized

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        budget = _budget()
        budget.spend()
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, str) and getattr(__obj, "__name__", "") in GROWING:
            args = _check_growth(owner, __obj.__name__, args, kwargs)
        if budget.depth >= MAX_DEPTH:
            raise TemplateLimit(f"calls nested more than {MAX_DEPTH} deep (a macro calling itself?)")
        budget.depth += 1
        try:
            return _check_number(super().call(__context, __obj, *args, **kwargs))
        except (OverflowError, RecursionError, MemoryError) as exc:
            raise TemplateLimit(f"the call failed: {type(exc).__name__}") from None
        finally:
            budget.depth -= 1


def _check_nesting(source: str, name: str | None, filename: str | None) -> None:
    """Brackets nested past MAX_NESTING inside one `{{ }}` or `{% %}`: a syntax error at the line where they
    pass it, before Jinja's recursive parser meets Python's recursion limit. Text outside tags is not read
    (a smiley's unclosed '(' in a rulebook is no expression)."""
    if source.count("(") + source.count("[") <= MAX_NESTING:
        return
    for tag in _TAG.finditer(source):
        depth = 0
        for index, char in enumerate(tag.group(), start=tag.start()):
            if char in "([{":
                depth += 1
                if depth > MAX_NESTING + 2:  # the tag's own '{{' or '{%'
                    raise TemplateSyntaxError(f"brackets nested more than {MAX_NESTING} deep",
                                              source.count("\n", 0, index) + 1, name, filename)
            elif char in ")]}":
                depth -= 1


def _longest(values: Iterable[Any]) -> int:
    return max((len(v) for v in values if isinstance(v, (str, list, tuple))), default=0)


def _check_growth(text: str, method: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
    """Refuse a str method whose result would pass MAX_OUTPUT characters, before it is built; returns the
    arguments to call it with (an iterator given to `join` is read once, here)."""
    size: int | float = len(text)
    if method in ("ljust", "rjust", "center", "zfill") and args and isinstance(args[0], int):
        size = max(size, args[0])
    elif method == "expandtabs":
        tab = args[0] if args and isinstance(args[0], int) else kwargs.get("tabsize", 8)
        size += text.count("\t") * max(tab if isinstance(tab, int) else 0, 0)
    elif method == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        size = _replaced_size(text, args[0], args[1], args[2] if len(args) > 2 else -1)
    elif method == "join" and args:
        parts = list(_counted_up_to(args[0], MAX_OUTPUT))
        args = (parts, *args[1:])
        size = sum(len(p) if isinstance(p, str) else 0 for p in parts) + len(text) * max(len(parts) - 1, 0)
    elif method in ("format", "format_map"):
        values = [*args, *kwargs.values()]
        if method == "format_map" and args and isinstance(args[0], Mapping):
            values = list(args[0].values())
        size += text.count("{") * _longest(values)
    if size > MAX_OUTPUT:
        raise TemplateLimit(f"str.{method} would make a string of {int(size)} characters (at most {MAX_OUTPUT})")
    return args


def _replaced_size(text: str, old: str, new: str, count: Any) -> int:
    times = len(text) + 1 if not old else text.count(old)
    if isinstance(count, int) and count >= 0:
        times = min(times, count)
    return len(text) + times * (len(new) - len(old))


def _counted_up_to(iterable: Any, limit: int) -> Iterator[Any]:
    """The entries of `iterable`, each paid from the budget; more than `limit` of them is refused."""
    budget = _budget()
    for n, value in enumerate(iterable):
        if n >= limit:
            raise TemplateLimit(f"joining more than {limit} entries")
        budget.spend()
        yield value


@pass_eval_context
def _replace(eval_ctx: Any, value: Any, old: Any, new: Any, count: Any = None) -> Any:
    """Jinja's `replace` filter, sized first (`'x' | replace('', 'y' * 9999)` grows with every character)."""
    from jinja2.filters import do_replace

    if isinstance(value, str) and isinstance(old, str) and isinstance(new, str):
        size = _replaced_size(value, old, new, -1 if count is None else count)
        if size > MAX_OUTPUT:
            raise TemplateLimit(f"replace would make a string of {size} characters (at most {MAX_OUTPUT})")
    return do_replace(eval_ctx, value, old, new, count)


@pass_eval_context
def _join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> str:
    """Jinja's `join` filter, sized as it reads its entries."""
    from jinja2.filters import sync_do_join

    parts = list(_counted_up_to(value, MAX_OUTPUT))
    size = sum(len(p) if isinstance(p, str) else 0 for p in parts) + len(str(d)) * max(len(parts) - 1, 0)
    if size > MAX_OUTPUT:
        raise TemplateLimit(f"join would make a string of {size} characters (at most {MAX_OUTPUT})")
    return str(sync_do_join(eval_ctx, parts, d, attribute))


def _counted(iterable: Iterable[Any]) -> Iterator[Any]:
    budget = _budget()
    for value in iterable:
        budget.spend()
        yield value


def _concat(parts: Iterable[str]) -> str:
    """`''.join` that stops a runaway template while it streams, before memory fills."""
    out: list[str] = []
    total = 0
    for part in parts:
        total += len(part)
        if total > MAX_OUTPUT:
            raise TemplateLimit(f"the template's output passes {MAX_OUTPUT} characters")
        out.append(part)
    return "".join(out)


def _format(value: Any, *args: Any, **kwargs: Any) -> str:
    if not isinstance(value, str):
        raise TemplateLimit("the format filter needs a string such as '%.1f'")
    _check_percent(value)
    if args and kwargs:
        raise TemplateLimit("the format filter takes positional or keyword arguments, not both")
    return value % (kwargs or args)


def _center(value: Any, width: int = 80) -> str:
    if not isinstance(width, int) or width > MAX_WIDTH:
        raise TemplateLimit(f"center width {width!r} is too large (at most {MAX_WIDTH})")
    return str(value).center(width)


def _indent(value: Any, width: int | str = 4, first: bool = False, blank: bool = False) -> str:
    from jinja2.filters import do_indent

    if (isinstance(width, int) and width > MAX_WIDTH) or (isinstance(width, str) and len(width) > MAX_WIDTH):
        raise TemplateLimit(f"indent width is too large (at most {MAX_WIDTH})")
    return do_indent(str(value), width, first, blank)


def _lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    from jinja2.utils import generate_lorem_ipsum

    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (n, min, max)) or \
            n > MAX_LIPSUM or max > 1000 or min > max:
        raise TemplateLimit(f"lipsum({n!r}) is too much placeholder text (at most {MAX_LIPSUM} paragraphs)")
    return str(generate_lorem_ipsum(n, html, min, max))
