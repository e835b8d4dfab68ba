#!/usr/bin/env python3
"""Python types written from the TypeScript SDK's declarations.

    python scripts/ts_types.py                # fetch the newest TypeScript SDK, rewrite the modules
    python scripts/ts_types.py --from DIR     # read an unpacked package instead
    python scripts/ts_types.py --check DIR    # exit 1 if the modules differ from what DIR gives

Two modules are written, each marked as generated:

* ``claude_wrap/_wire/builtin_tools.py``: a TypedDict for the input and
  the output of each built-in tool, from ``sdk-tools.d.ts`` (the JSON
  schemas the binary gives the model, as TypeScript), and
  ``BUILTIN_TOOL_INPUTS`` / ``BUILTIN_TOOL_OUTPUTS``, tool name → type;
* ``claude_wrap/_launch/settings_types.py``: ``Settings``, the settings
  file's keys, from the ``Settings`` interface of ``sdk.d.ts``;
* the marked block of ``claude_wrap/_wire/system_views.py``: a typed view
  for each ``system`` frame ``sdk.d.ts`` types that has no class or view
  written by hand.

The declarations use a small part of TypeScript (object types, unions,
literals, arrays, tuples, ``Record``, references to other declarations),
which the parser below reads; anything else becomes ``Any``. ``make bump``
runs this after ``ts_surface.py``; ``tests/e2e/test_builtin_tools_e2e.py``
checks the tool inputs against the schemas the pinned binary sends.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ts_surface import fetch  # a sibling script

ROOT = Path(__file__).resolve().parent.parent
BUILTIN_TOOLS = ROOT / "claude_wrap" / "_wire" / "builtin_tools.py"
SETTINGS = ROOT / "claude_wrap" / "_launch" / "settings_types.py"
SYSTEM_VIEWS = ROOT / "claude_wrap" / "_wire" / "system_views.py"
BEGIN, END = "# --- written by scripts/ts_types.py: begin ---\n", "# --- written by scripts/ts_types.py: end ---\n"

# System frames with a message class (or a view) of their own, written by hand.
HAND_WRITTEN = {
    "init", "api_retry", "compact_boundary", "status", "informational",  # views
    "task_started", "task_progress", "task_updated", "task_notification", "mirror_error",  # messages
    "conversation_reset",
}  # fmt: skip

# The declarations of sdk-tools.d.ts are named for their tool, with "Input"
# or "Output" after it, except these (by the name before the suffix); None:
# not one tool (Mcp is any MCP tool's).
TOOL_NAMES: dict[str, str | None] = {
    "FileEdit": "Edit",
    "FileRead": "Read",
    "FileWrite": "Write",
    "ListMcpResources": "ListMcpResourcesTool",
    "ReadMcpResource": "ReadMcpResourceTool",
    "ReadMcpResourceDir": "ReadMcpResourceDirTool",
    "ProposeSkills": "propose_skills",
    "ProposeGoal": "SetGoal",
    "Mcp": None,
}


# ---- reading TypeScript ---------------------------------------------------

_TOKEN = re.compile(
    r"""(?P<doc>/\*\*.*?\*/)|(?P<comment>/\*.*?\*/|//[^\n]*)|(?P<space>\s+)"""
    r"""|(?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?P<num>-?\d+(?:\.\d+)?)"""
    r"""|(?P<name>[A-Za-z_$][\w$]*)|(?P<punct>=>|\.\.\.|[{}\[\]()<>|&;:?,=.])""",
    re.S,
)


@dataclass
class Tok:
    kind: str
    text: str
    doc: str = ""


def tokens(source: str) -> list[Tok]:
    out: list[Tok] = []
    doc = ""
    for found in _TOKEN.finditer(source):
        kind = found.lastgroup or ""
        if kind == "doc":
            doc = found.group()
        elif kind in ("name", "str", "num", "punct"):
            out.append(Tok(kind, found.group(), doc))
            doc = ""
    return out


# Type nodes: ("lit", value) ("prim", name) ("ref", name, args) ("arr", t)
# ("tuple", [t]) ("union", [t]) ("obj", Obj) ("func",)
@dataclass
class Member:
    name: str
    type: tuple
    optional: bool
    doc: str


@dataclass
class Obj:
    members: list[Member] = field(default_factory=list)
    extra: tuple | None = None  # an index signature's value type


def _unquote(text: str) -> str:
    """The value of a string literal, in single or double quotes."""
    return json.loads('"' + text[1:-1].replace('"', '\\"') + '"')


class Parser:
    def __init__(self, toks: list[Tok]) -> None:
        self.toks, self.at = toks, 0

    def peek(self, ahead: int = 0) -> Tok:
        at = self.at + ahead
        return self.toks[at] if at < len(self.toks) else Tok("end", "")

    def take(self, text: str | None = None) -> Tok:
        tok = self.peek()
        if text is not None and tok.text != text:
            raise SyntaxError(f"expected {text!r}, found {tok.text!r} at token {self.at}")
        self.at += 1
        return tok

    def type(self) -> tuple:
        if self.peek().text in ("|", "&"):
            self.take()
        parts = [self.intersection()]
        while self.peek().text == "|":
            self.take()
            parts.append(self.intersection())
        return parts[0] if len(parts) == 1 else ("union", parts)

    def intersection(self) -> tuple:
        parts = [self.postfix()]
        while self.peek().text == "&":
            self.take()
            parts.append(self.postfix())
        if len(parts) == 1:
            return parts[0]
        objs = [p[1] for p in parts if p[0] == "obj"]
        if len(objs) == len(parts):  # { a } & { b }: one object
            return ("obj", Obj([m for o in objs for m in o.members], next((o.extra for o in objs if o.extra), None)))
        return ("prim", "unknown")

    def postfix(self) -> tuple:
        node = self.primary()
        while self.peek().text == "[" and self.peek(1).text == "]":
            self.take(), self.take()
            node = ("arr", node)
        return node

    def primary(self) -> tuple:
        tok = self.take()
        if tok.kind == "str":
            return ("lit", _unquote(tok.text))
        if tok.kind == "num":
            return ("lit", float(tok.text) if "." in tok.text else int(tok.text))
        if tok.text == "{":
            return ("obj", self.members())
        if tok.text == "[":
            items = []
            while self.peek().text != "]":
                rest = self.peek().text == "..."
                if rest:  # [A, ...A[]]: the rest are more of the same
                    self.take()
                item = self.type()
                items.append(item[1] if rest and item[0] == "arr" else item)
                if self.peek().text == ",":
                    self.take()
            self.take("]")
            return ("tuple", items)
        if tok.text == "(":
            if self._is_function():
                self._skip_group("(", ")", opened=True)
                self.take("=>")
                self.type()
                return ("func",)
            node = self.type()
            self.take(")")
            return node
        if tok.text in ("readonly", "keyof", "typeof"):
            node = self.postfix()
            return node if tok.text == "readonly" else ("prim", "unknown")
        if tok.kind == "name":
            name = tok.text
            while self.peek().text == ".":
                self.take()
                name += "." + self.take().text
            args = []
            if self.peek().text == "<":
                self.take()
                while self.peek().text != ">":
                    args.append(self.type())
                    if self.peek().text == ",":
                        self.take()
                self.take(">")
            if name in ("true", "false"):
                return ("lit", name == "true")
            if name in (
                "string",
                "number",
                "boolean",
                "null",
                "undefined",
                "unknown",
                "any",
                "object",
                "never",
                "void",
            ):
                return ("prim", name)
            return ("ref", name, args)
        raise SyntaxError(f"unexpected {tok.text!r} at token {self.at}")

    def _is_function(self) -> bool:
        depth, at = 1, self.at
        while depth:
            text = self.toks[at].text
            depth += {"(": 1, ")": -1}.get(text, 0)
            at += 1
        return at < len(self.toks) and self.toks[at].text == "=>"

    def _skip_group(self, opening: str, closing: str, *, opened: bool = False) -> None:
        if not opened:
            self.take(opening)
        depth = 1
        while depth:
            text = self.take().text
            depth += {opening: 1, closing: -1}.get(text, 0)

    def members(self) -> Obj:
        obj = Obj()
        while self.peek().text != "}":
            tok = self.peek()
            if tok.text == "readonly" and self.peek(1).text not in (":", "?", "("):
                self.take()
                tok = self.peek()
            if tok.text == "[":  # [k: string]: T
                self._skip_group("[", "]")
                self.take(":")
                obj.extra = self.type()
            else:
                name = self.take()
                key = _unquote(name.text) if name.kind == "str" else name.text
                optional = self.peek().text == "?"
                if optional:
                    self.take()
                if self.peek().text in ("(", "<"):  # a method
                    while self.peek().text not in (";", "}"):
                        if self.peek().text in ("(", "{", "<"):
                            self._skip_group(self.peek().text, {"(": ")", "{": "}", "<": ">"}[self.peek().text])
                        else:
                            self.take()
                else:
                    self.take(":")
                    obj.members.append(Member(key, self.type(), optional, tok.doc))
            while self.peek().text in (";", ","):
                self.take()
        self.take("}")
        return obj


def declarations(source: str) -> dict[str, tuple]:
    """Every ``export (declare) interface/type`` of a declaration file, by name."""
    toks = tokens(source)
    found: dict[str, tuple] = {}
    parser = Parser(toks)
    while parser.at < len(toks):
        tok = parser.take()
        if tok.text not in ("interface", "type") or parser.peek().kind != "name":
            continue
        if parser.toks[parser.at - 2].text not in ("export", "declare"):
            continue
        name = parser.take().text
        if parser.peek().text == "<":
            parser._skip_group("<", ">")
        try:
            if tok.text == "interface":
                while parser.peek().text != "{":
                    parser.take()  # extends ...
                parser.take("{")
                found[name] = ("obj", parser.members())
            else:
                parser.take("=")
                found[name] = parser.type()
        except (SyntaxError, IndexError):
            continue
    return found


# ---- writing Python ---------------------------------------------------------


def doc_text(doc: str) -> str:
    """A doc comment's prose, without its ``@tags`` and comment marks."""
    lines = [re.sub(r"^\s*\*\s?", "", line) for line in doc.removeprefix("/**").removesuffix("*/").splitlines()]
    text = "\n".join(line for line in lines if not line.lstrip().startswith("@")).strip()
    return text.replace("\\", "\\\\").replace('"""', "'''")


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def singular(name: str) -> str:
    """The name of one item of a list called ``name`` (never ``name`` itself)."""
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name + "Item"


# How TypeScript's scalars read in Python (a JSON number may be either int or float).
_SCALARS = {"string": "str", "number": "float", "boolean": "bool"}


def _scalar(node: tuple) -> str | None:
    """The Python type of a scalar node (``UUID`` is a string), else None."""
    if node[0] == "prim":
        return _SCALARS.get(node[1])
    return "str" if node[0] == "ref" and node[1] == "UUID" else None


class Writer:
    """Renders type nodes as Python annotations, collecting the TypedDicts they need."""

    def __init__(self, known: dict[str, tuple]) -> None:
        self.known = known
        self.classes: dict[str, str] = {}  # name -> source, in the order written
        self.writing: set[str] = set()
        self.seen: dict[object, str] = {}  # shape -> the class written for it

    def annotation(self, node: tuple, name: str) -> str:
        kind = node[0]
        if (scalar := _scalar(node)) is not None:
            return scalar
        if kind == "prim":
            return "None" if node[1] == "null" else "Any"
        if kind == "lit":
            return f"Literal[{node[1]!r}]"
        if kind == "arr":
            return f"list[{self.annotation(node[1], singular(name))}]"
        if kind == "tuple":
            kinds = _distinct(node[1])
            if len(kinds) <= 1:  # [T] | [T, T] | ...: what a schema's minItems / maxItems became
                return f"list[{self.annotation(kinds[0], singular(name))}]" if kinds else "list[Any]"
            return f"tuple[{', '.join(self.annotation(t, singular(name)) for t in node[1])}]"
        if kind == "union":
            return self.union(node[1], name)
        if kind == "obj":
            obj: Obj = node[1]
            if not obj.members:
                return f"dict[str, {self.annotation(obj.extra, name)}]" if obj.extra else "dict[str, Any]"
            # The same shape again (docs and all): one class.
            return self.seen.get(_shape(node)) or self.typed_dict(name, obj, "")
        if kind == "ref":
            ref, args = node[1], node[2]
            if ref == "Record" and len(args) == 2:
                return f"dict[str, {self.annotation(args[1], name)}]"
            if ref in ("Array", "ReadonlyArray") and args:
                return f"list[{self.annotation(args[0], singular(name))}]"
            if ref in self.known and not args:
                return self.annotation(self.known[ref], ref) if self.known[ref][0] != "obj" else self.named(ref)
            return "Any"
        return "Any"

    def union(self, parts: list[tuple], name: str) -> str:
        parts = _distinct([p for p in parts if p != ("prim", "undefined")])
        if len(parts) > 1 and all(p[0] == "tuple" for p in parts):
            return self.annotation(("tuple", [item for p in parts for item in p[1]]), name)
        if len(parts) == 1:
            return self.annotation(parts[0], name)
        if any(p == ("prim", "number") for p in parts):  # 0 | number: a number
            parts = [p for p in parts if not (p[0] == "lit" and isinstance(p[1], (int, float)) and p[1] is not True)]
        literals = [p[1] for p in parts if p[0] == "lit"]
        others = [p for p in parts if p[0] != "lit"]
        if literals and all(isinstance(v, bool) for v in literals) and ("prim", "boolean") in others:
            literals = []
        rendered: list[str] = []
        if literals:
            rendered.append(f"Literal[{', '.join(repr(v) for v in dict.fromkeys(literals))}]")
        variants = sum(1 for p in others if p[0] == "obj")
        for index, part in enumerate(others):
            tag = name if variants < 2 else name + _variant(part, index)
            text = self.annotation(part, tag)
            if text not in rendered:
                rendered.append(text)
        if "Any" in rendered:
            return "Any"
        if "None" in rendered:  # None last, as people write it
            rendered = [r for r in rendered if r != "None"] + ["None"]
        return " | ".join(rendered) if rendered else "Any"

    def named(self, ref: str) -> str:
        if ref in self.writing:
            raise ValueError(f"{ref} refers to itself: the module could not define it before its use")
        if ref not in self.classes:
            self.typed_dict(ref, self.known[ref][1], "")
        return ref

    def typed_dict(self, name: str, obj: Obj, doc: str) -> str:
        while name in self.classes or name in self.writing:
            name += "_"
        self.writing.add(name)
        plain = [m for m in obj.members if m.name.isidentifier() and not keyword.iskeyword(m.name)]
        odd = [m for m in obj.members if m not in plain]
        lines: list[str] = []
        base = "TypedDict"
        if odd:  # keys that are not Python names: a functional TypedDict for them, as the base
            base = f"_{name}Keys"
            items = ", ".join(f"{m.name!r}: {self.field(m, name)}" for m in odd)
            lines.append(f"{base} = TypedDict({base!r}, {{{items}}})\n\n")
        lines.append(f"class {name}({base}):\n")
        text = doc_text(doc)
        if odd:
            text += ("\n\n" if text else "") + "Also: " + ", ".join(f"``{m.name}``" for m in odd) + "."
        if obj.extra is not None:
            text += ("\n\n" if text else "") + "Keys not listed here are allowed too."
        if text:
            lines.append(_docstring(text, "    "))
        for member in plain:
            lines.append(f"    {member.name}: {self.field(member, name)}\n")
            if prose := doc_text(member.doc):
                lines.append(_docstring(prose, "    "))
        if not plain and not text:
            lines.append("    pass\n")
        self.classes[name] = "".join(lines)
        self.seen.setdefault(_shape(("obj", obj)), name)
        self.writing.discard(name)
        return name

    def field(self, member: Member, owner: str) -> str:
        base = owner.removesuffix("Input")  # BashInput's nested shapes are Bash...; outputs keep their suffix
        text = self.annotation(member.type, base + camel(member.name))
        return f"NotRequired[{text}]" if member.optional else text


def _shape(node: object) -> object:
    """``node`` as a comparable value, its doc comments as their prose: the
    same comment nested deeper is indented otherwise, yet says the same."""
    if isinstance(node, Obj):
        members = tuple((m.name, _shape(m.type), m.optional, doc_text(m.doc)) for m in node.members)
        return ("obj", members, _shape(node.extra))
    if isinstance(node, (tuple, list)):
        return tuple(_shape(part) for part in node)
    return node


def _variant(node: tuple, index: int) -> str:
    """A name for one object of a union: its tag's value (``source: 'github'``), else its place."""
    if node[0] == "obj":
        for member in node[1].members:
            if member.type[0] == "lit" and isinstance(member.type[1], str):
                return camel(member.type[1])
    return str(index + 1)


def _distinct(nodes: list[tuple]) -> list[tuple]:
    """``nodes`` without repeats (nodes of one ``_shape`` are one)."""
    first: dict[object, tuple] = {}
    for node in nodes:
        first.setdefault(_shape(node), node)
    return list(first.values())


def _docstring(text: str, indent: str) -> str:
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    wrapped = []
    for p in paragraphs:
        if p.lstrip().startswith(("-", "*")) or "\n -" in p or "\n-" in p:
            wrapped.append("\n".join(indent + line.rstrip() for line in p.splitlines()))
        else:
            wrapped.append(textwrap.fill(" ".join(p.split()), 100, initial_indent=indent, subsequent_indent=indent))
    body = "\n\n".join(wrapped).strip()
    if "\n" in body or len(body) > 90:
        return f'{indent}"""{body}\n{indent}"""\n'
    return f'{indent}"""{body}{" " if body.endswith(chr(34)) else ""}"""\n'


HEADER = '''"""{summary}

Written by ``scripts/ts_types.py`` from the TypeScript SDK {version}
(``{source}``); do not edit by hand: ``make bump`` rewrites it.
{more}"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired
# from evaluated annotations, so each class comes after the ones it uses.
from typing import Any, Literal

from typing_extensions import NotRequired, TypeAlias, TypedDict

'''


def _union_names(node: tuple, suffix: str) -> list[str]:
    parts = node[1] if node[0] == "union" else [node]
    return [p[1] for p in parts if p[0] == "ref" and p[1].endswith(suffix)]


def builtin_tools(known: dict[str, tuple], version: str) -> str:
    """The module of the built-in tools' inputs and outputs, from the
    ``declarations`` of ``sdk-tools.d.ts``."""
    writer = Writer(known)
    tables: dict[str, dict[str, str]] = {"Input": {}, "Output": {}}
    aliases: list[str] = []
    exported: list[str] = []
    for suffix, union in (("Input", "ToolInputSchemas"), ("Output", "ToolOutputSchemas")):
        for name in _union_names(known[union], suffix):
            stem = name.removesuffix(suffix)
            tool = TOOL_NAMES.get(stem, stem)
            what = f"The {suffix.lower()} of the ``{tool}`` tool." if tool else f"The {suffix.lower()} of an MCP tool."
            node = known[name]
            if node[0] == "obj":
                writer.typed_dict(name, node[1], f"/** {what} */")
            else:  # a union of shapes (or a list): an alias
                aliases.append(f"{name}: TypeAlias = {writer.annotation(node, name)}\n" + _docstring(what, ""))
            exported.append(name)
            if tool is not None:
                tables[suffix][tool] = name
    more = (
        "\nThe model writes the inputs, so a value may not fit its type: read\n"
        "them as what the binary asks for, and check what a guard relies on.\n"
        "An output is the ``tool_use_result`` of the ``UserMessage`` that\n"
        "carries the tool's result (and a PostToolUse hook's ``tool_response``).\n"
    )
    out = [HEADER.format(summary="The inputs and outputs of the binary's built-in tools, typed.",
                         version=version, source="sdk-tools.d.ts", more=more)]  # fmt: skip
    public = ["BUILTIN_TOOL_INPUTS", "BUILTIN_TOOL_OUTPUTS", *sorted(exported)]
    out.append("__all__ = [\n" + "".join(f'    "{n}",\n' for n in public) + "]\n\n\n")
    out.append("\n\n".join(writer.classes.values()))
    out.append("\n\n" + "\n\n".join(aliases))
    for suffix, kind in (("Input", "type[Any]"), ("Output", "Any")):
        table = tables[suffix]
        out.append(f"\n\nBUILTIN_TOOL_{suffix.upper()}S: dict[str, {kind}] = {{\n")
        out.extend(f'    "{tool}": {cls},\n' for tool, cls in sorted(table.items(), key=lambda kv: kv[0].lower()))
        out.append(f'}}\n"""Built-in tool name → the type of its {suffix.lower()}."""\n')
    return "".join(out)


def settings(known: dict[str, tuple], version: str) -> str:
    """The module of ``Settings``, from the ``declarations`` of ``sdk.d.ts``."""
    writer = Writer(known)
    writer.typed_dict(
        "Settings",
        known["Settings"][1],
        "/** A settings file's keys (``settings=`` takes a path, JSON text or one of these). */",
    )
    header = HEADER.format(summary="The keys of a Claude Code settings file, typed.", version=version,
                           source="sdk.d.ts", more="")  # fmt: skip
    out = [header.replace("NotRequired, TypeAlias, TypedDict", "NotRequired, TypedDict")]  # no aliases here
    out.append('__all__ = ["Settings"]\n\n\n')
    out.append("\n\n".join(writer.classes.values()))
    return "".join(out)


def _view_field(member: Member) -> tuple[str, str]:
    """A view attribute's annotation and default: the wire's scalars and
    lists of them typed, anything nested left as parsed JSON."""
    node = member.type
    if node[0] == "union":
        kinds = [p for p in node[1] if p not in (("prim", "null"), ("prim", "undefined"))]
        nullable = len(kinds) < len(node[1])
        node = kinds[0] if len(kinds) == 1 else ("union", kinds)
    else:
        nullable = False
    text = _scalar(node) or "Any"
    if node[0] == "lit" or (node[0] == "union" and all(p[0] == "lit" for p in node[1])):
        values = [node[1]] if node[0] == "lit" else [p[1] for p in node[1]]
        text = (
            {str: "str", bool: "bool"}.get(type(values[0]), "float") if len({type(v) for v in values}) == 1 else "Any"
        )
    elif node[0] == "arr":
        text = f"list[{_scalar(node[1]) or 'Any'}]"
    elif node[0] == "obj" or (node[0] == "ref" and node[1] == "Record"):
        text = "dict[str, Any]"
    if text == "Any":
        return "Any", "None"
    if member.optional or nullable:
        return f"{text} | None", "None"
    defaults = {"str": '""', "float": "0", "bool": "False"}
    if text in defaults:
        return text, defaults[text]
    return text, "field(default_factory=list)" if text.startswith("list") else "field(default_factory=dict)"


def system_views(source: str, known: dict[str, tuple], version: str) -> str:
    """The generated block of system_views.py: a frozen view per system
    frame of ``sdk.d.ts`` (``source``, ``known`` its declarations)."""
    out = [BEGIN, f"# From the TypeScript SDK {version} (sdk.d.ts); make bump rewrites this block.\n"]
    names = []
    for ts_name, node in sorted(known.items()):
        if node[0] != "obj":
            continue
        members = {m.name: m for m in node[1].members}
        tag, subtype = members.get("type"), members.get("subtype")
        if tag is None or tag.type != ("lit", "system") or subtype is None or subtype.type[0] != "lit":
            continue
        if subtype.type[1] in HAND_WRITTEN:
            continue
        name = re.sub(r"(Event|Message)?$", "Message", ts_name.removeprefix("SDK"), count=1)
        names.append(name)
        out.append(f"\n\n@dataclass(frozen=True)\nclass {name}(_SystemView):\n")
        out.append(_docstring(f"``system/{subtype.type[1]}``{_view_summary(source, ts_name)}", "    "))
        out.append(f'\n    subtype: ClassVar[str] = "{subtype.type[1]}"\n\n')
        for member in node[1].members:
            if member.name in ("type", "subtype"):
                continue
            annotation, default = _view_field(member)
            attr = re.sub(r"(?<!^)(?=[A-Z])", "_", member.name).lower()
            if attr != member.name:
                default = (
                    default.replace("field(", f"field(metadata=_key({member.name!r}), ", 1)
                    if default.startswith("field(")
                    else f"field(default={default}, metadata=_key({member.name!r}))"
                )
            out.append(f"    {attr}: {annotation} = {default}\n")
            if prose := doc_text(member.doc):
                out.append(_docstring(prose, "    "))
    out.append("\n\n__all__ += [" + "".join(f'"{n}", ' for n in names) + "]\n" + END)
    return "".join(out)


def _view_summary(source: str, ts_name: str) -> str:
    """``: `` and the first sentence of the doc comment above a declaration, if it has one."""
    found = re.search(r"/\*\*((?:(?!\*/).)*)\*/\s*export declare type " + ts_name + r"\b", source, re.S)
    if not found:
        return "."
    text = " ".join(doc_text("/**" + found.group(1) + "*/").split())
    first = re.split(r"(?<=[a-z)`'][.!?])\s+(?=[A-Z])", text, maxsplit=1)[0]
    return ": " + first[:1].lower() + first[1:] if first else "."


def formatted(text: str, path: Path) -> str:
    """``text`` as the project's formatter writes it."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(path), "-"],
        input=text, capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    return done.stdout


def written(folder: Path) -> dict[Path, str]:
    version = json.loads((folder / "package.json").read_text())["version"]
    sdk = (folder / "sdk.d.ts").read_text()
    sdk_known = declarations(sdk)  # read once: settings and the views both come from it
    head, _, rest = SYSTEM_VIEWS.read_text().partition(BEGIN)
    _, _, tail = rest.partition(END)
    modules = {
        BUILTIN_TOOLS: builtin_tools(declarations((folder / "sdk-tools.d.ts").read_text()), version),
        SETTINGS: settings(sdk_known, version),
        SYSTEM_VIEWS: head + system_views(sdk, sdk_known, version) + tail,
    }
    return {path: formatted(text, path) for path, text in modules.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--from", dest="source", type=Path, help="an unpacked package folder")
    parser.add_argument("--check", type=Path, help="an unpacked package folder to compare against")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.check or args.source or fetch(Path(scratch))
        modules = written(folder)
    stale = [path for path, text in modules.items() if not path.exists() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"out of date: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    for path, text in modules.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
