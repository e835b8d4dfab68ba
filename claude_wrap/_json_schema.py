"""A small JSON Schema validator for tool arguments given as raw schema dicts.

Tools declared with Python types are validated by pydantic; this module only
serves tools whose ``input_schema`` is a hand-written JSON Schema. It covers
the keywords that tool schemas actually use, and nothing else:

* ``type`` (one name or a list), ``nullable`` (OpenAPI style), ``enum``, ``const``;
* objects: ``properties``, ``required``, ``additionalProperties`` (bool or schema);
* arrays: ``items`` (one schema), ``minItems``, ``maxItems``;
* strings: ``minLength``, ``maxLength``; numbers: ``minimum``, ``maximum``,
  ``exclusiveMinimum``, ``exclusiveMaximum`` (draft-06+ numeric form);
* combinators: ``anyOf``, ``oneOf``, ``allOf``, ``not``;
* ``$ref`` to ``#/$defs/...`` or ``#/definitions/...`` inside the same schema.

Unknown keywords (``format``, ``pattern``, ``description`` ...) are ignored,
which errs on the side of running the tool: the binary and the model already
saw the schema, and the handler still gets the arguments as sent.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["schema_errors"]

_MAX_ERRORS = 10


def schema_errors(schema: Mapping[str, Any], value: Any) -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty when it is valid).

    Each message starts with the path of the offending value, ``$`` being
    the arguments object itself: ``"$.b: expected number, got string"``.
    """
    errors: list[str] = []
    _check(schema, value, "$", schema, errors)
    return errors[:_MAX_ERRORS]


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _is_type(value: Any, name: str) -> bool:
    actual = _type_name(value)
    if name == "number":
        return actual in ("integer", "number")
    if name == "integer":
        return actual == "integer" or (actual == "number" and float(value).is_integer())
    return actual == name


def _resolve(ref: str, root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node if isinstance(node, Mapping) else None


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def _check(schema: Any, value: Any, path: str, root: Mapping[str, Any], errors: list[str]) -> None:
    if len(errors) >= _MAX_ERRORS or not isinstance(schema, Mapping):
        return  # ``true``/``{}`` and anything unreadable accept every value
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target = _resolve(ref, root)
        if target is None:
            errors.append(f"{path}: schema reference {ref!r} cannot be resolved")
            return
        _check(target, value, path, root, errors)
    if value is None and schema.get("nullable") is True:
        return
    if not _check_type(schema, value, path, errors):
        return  # the other keywords would only repeat the type mismatch
    if "enum" in schema and isinstance(schema["enum"], list) and value not in schema["enum"]:
        allowed = ", ".join(_short(v) for v in schema["enum"])
        errors.append(f"{path}: {_short(value)} is not one of {allowed}")
    if "const" in schema and value != schema["const"]:
        errors.append(f"{path}: expected {_short(schema['const'])}, got {_short(value)}")
    if isinstance(value, dict):
        _check_object(schema, value, path, root, errors)
    elif isinstance(value, list):
        _check_array(schema, value, path, root, errors)
    elif isinstance(value, str):
        _check_bounds(schema, len(value), path, errors, "minLength", "maxLength", "characters")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        _check_number(schema, value, path, errors)
    _check_combinators(schema, value, path, root, errors)


def _check_type(schema: Mapping[str, Any], value: Any, path: str, errors: list[str]) -> bool:
    expected = schema.get("type")
    if expected is None:
        return True
    names = [expected] if isinstance(expected, str) else [n for n in expected if isinstance(n, str)]
    if any(_is_type(value, name) for name in names):
        return True
    errors.append(f"{path}: expected {' or '.join(names)}, got {_type_name(value)}")
    return False


def _check_object(
    schema: Mapping[str, Any], value: dict[str, Any], path: str, root: Mapping[str, Any], errors: list[str]
) -> None:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    for name in schema.get("required") or ():
        if name not in value:
            errors.append(f"{path}: missing required property {name!r}")
    extra = schema.get("additionalProperties", True)
    for name, item in value.items():
        sub = f"{path}.{name}"
        if name in properties:
            _check(properties[name], item, sub, root, errors)
        elif extra is False:
            errors.append(f"{path}: unexpected property {name!r}")
        elif isinstance(extra, Mapping):
            _check(extra, item, sub, root, errors)


def _check_array(
    schema: Mapping[str, Any], value: list[Any], path: str, root: Mapping[str, Any], errors: list[str]
) -> None:
    _check_bounds(schema, len(value), path, errors, "minItems", "maxItems", "items")
    items = schema.get("items")
    if isinstance(items, Mapping):
        for i, item in enumerate(value):
            _check(items, item, f"{path}[{i}]", root, errors)


def _check_bounds(
    schema: Mapping[str, Any], size: int, path: str, errors: list[str], low: str, high: str, unit: str
) -> None:
    if isinstance(schema.get(low), int) and size < schema[low]:
        errors.append(f"{path}: needs at least {schema[low]} {unit}, got {size}")
    if isinstance(schema.get(high), int) and size > schema[high]:
        errors.append(f"{path}: allows at most {schema[high]} {unit}, got {size}")


def _check_number(schema: Mapping[str, Any], value: float, path: str, errors: list[str]) -> None:
    for key, sign in (("minimum", ">="), ("maximum", "<="), ("exclusiveMinimum", ">"), ("exclusiveMaximum", "<")):
        bound = schema.get(key)
        if not isinstance(bound, (int, float)) or isinstance(bound, bool):
            continue
        ok = {">=": value >= bound, "<=": value <= bound, ">": value > bound, "<": value < bound}[sign]
        if not ok:
            errors.append(f"{path}: must be {sign} {bound}, got {value}")


def _check_combinators(
    schema: Mapping[str, Any], value: Any, path: str, root: Mapping[str, Any], errors: list[str]
) -> None:
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if not isinstance(options, list) or not options:
            continue
        failures: list[list[str]] = []
        for option in options:
            found: list[str] = []
            _check(option, value, path, root, found)
            failures.append(found)
        matched = sum(1 for found in failures if not found)
        if matched == 0:
            closest = min(failures, key=len)
            errors.append(f"{path}: matches none of the {key} alternatives ({'; '.join(closest)})")
        elif key == "oneOf" and matched > 1:
            errors.append(f"{path}: matches {matched} of the oneOf alternatives, exactly one allowed")
    for option in schema.get("allOf") or ():
        _check(option, value, path, root, errors)
    negated = schema.get("not")
    if isinstance(negated, Mapping):
        matched_not: list[str] = []
        _check(negated, value, path, root, matched_not)
        if not matched_not:
            errors.append(f"{path}: must not match {_short(dict(negated))}")
