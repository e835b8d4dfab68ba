"""Checking tool arguments against a JSON Schema, with the official package's verdicts.

The official package validates a tool's arguments with the ``jsonschema``
package (draft 2020-12, no format checks) and tells the model the message
of the one error ``jsonschema``'s ``best_match`` picks. The model reads
that message, so this module reproduces both the choice and the wording,
without the dependency, for the keywords tool schemas use:

* ``type``, ``enum``, ``const``; boolean schemas;
* objects: ``properties``, ``required``, ``additionalProperties``,
  ``patternProperties``, ``propertyNames``, ``minProperties``,
  ``maxProperties``, ``dependentRequired``, ``dependentSchemas``;
* arrays: ``items``, ``prefixItems``, ``contains`` (with ``minContains``,
  ``maxContains``), ``minItems``, ``maxItems``, ``uniqueItems``;
* strings: ``minLength``, ``maxLength``, ``pattern``; numbers: ``minimum``,
  ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``, ``multipleOf``;
* ``anyOf``, ``oneOf``, ``allOf``, ``not``, ``if``/``then``/``else``;
* ``$ref`` to a JSON pointer inside the same schema (``#``, ``#/$defs/...``).

Other keywords (``format``, ``unevaluatedProperties``, ``$dynamicRef``,
remote ``$ref``s ...) are ignored, which errs on the side of running the tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence, Sized
from typing import Any

__all__ = ["SchemaReferenceError", "validation_message"]


class SchemaReferenceError(Exception):
    """A ``$ref`` in the schema points nowhere; ``str()`` reads as the official package's."""


def validation_message(schema: Any, instance: Any) -> str | None:
    """The message of the most relevant way ``instance`` breaks ``schema``, or ``None``.

    Raises ``SchemaReferenceError`` when validation reaches a ``$ref`` that
    does not resolve.
    """
    best = _best_match(_Validator(schema).errors(schema, instance))
    return None if best is None else best.message


class _Error:
    __slots__ = ("context", "instance", "keyword", "message", "path", "schema")

    def __init__(self, message: str, context: list[_Error] | None = None) -> None:
        self.message = message
        self.context = context or []
        self.path: tuple[Any, ...] = ()  # where in the instance, relative to the validation that made it
        self.keyword: str | None = None
        self.schema: Any = None
        self.instance: Any = None


# -- which error the model is told about -------------------------------------------------

_WEAK = ("anyOf", "oneOf")


def _relevance(error: _Error) -> tuple[Any, ...]:
    # Shallow errors first, then the later sibling, then anything but anyOf/oneOf,
    # then errors whose schema's own type the value does not even have.
    # (Paths of one length differ first where they reach different values, so a
    # property name is never compared with an array index.)
    return (-len(error.path), error.path, error.keyword not in _WEAK, not _matches_type(error))


def _matches_type(error: _Error) -> bool:
    if not isinstance(error.schema, Mapping) or "type" not in error.schema:
        return False
    expected = error.schema["type"]
    names = [expected] if isinstance(expected, str) else expected
    return any(_is_type(error.instance, name) for name in names)


def _best_match(errors: Iterator[_Error]) -> _Error | None:
    best: _Error | None = None
    best_key: tuple[Any, ...] | None = None
    for error in errors:
        key = _relevance(error)
        if best_key is None or key > best_key:  # the first of equals wins
            best, best_key = error, key
    while best is not None and best.context:
        # Inside anyOf/oneOf the deepest complaint says the most, unless two tie.
        smallest = sorted(best.context, key=_relevance)[:2]
        if len(smallest) == 2 and _relevance(smallest[0]) == _relevance(smallest[1]):
            return best
        best = smallest[0]
    return best


# -- values ------------------------------------------------------------------------------------


def _is_type(value: Any, name: Any) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return False


class _Unbooled:
    """Keeps ``True``/``1`` and ``False``/``0`` apart when values are compared."""


_TRUE, _FALSE = _Unbooled(), _Unbooled()


def _unbool(value: Any) -> Any:
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return value


def _equal(one: Any, two: Any) -> bool:
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return one.keys() == two.keys() and all(_equal(one[key], two[key]) for key in one)
    return bool(_unbool(one) == _unbool(two))


def _unique(items: list[Any]) -> bool:
    seen: list[Any] = []
    for item in items:
        if any(_equal(item, other) for other in seen):
            return False
        seen.append(item)
    return True


def _extras(names: list[Any]) -> str:
    verb = "was" if len(names) == 1 else "were"
    return f"{', '.join(repr(name) for name in names)} {verb}"


# -- the keywords ------------------------------------------------------------------------------


class _Validator:
    def __init__(self, root: Any) -> None:
        self.root = root

    def valid(self, schema: Any, instance: Any) -> bool:
        return next(self.errors(schema, instance), None) is None

    def errors(self, schema: Any, instance: Any) -> Iterator[_Error]:
        if not isinstance(schema, Mapping):
            if schema is False:
                error = _Error(f"False schema does not allow {instance!r}")
                error.instance, error.schema = instance, schema
                yield error
            return  # ``true`` (or anything unreadable) allows every value
        for keyword, value in schema.items():
            check = _KEYWORDS.get(keyword)
            if check is None:
                continue
            for error in check(self, value, instance, schema):
                if error.schema is None:  # made here, not passed up from below
                    error.schema, error.instance = schema, instance
                    error.keyword = error.keyword or keyword
                yield error

    def descend(self, instance: Any, schema: Any, path: Any = None) -> Iterator[_Error]:
        for error in self.errors(schema, instance):
            if path is not None:
                error.path = (path, *error.path)
            yield error

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            return True  # remote references are not followed
        pointer = ref[1:]
        node: Any = self.root
        if pointer:
            for part in pointer.lstrip("/").split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                if isinstance(node, Mapping) and part in node:
                    node = node[part]
                elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                    node = node[int(part)]
                else:
                    raise SchemaReferenceError(f"PointerToNowhere: {pointer!r} does not exist within {self.root!r}")
        return node


Check = Callable[["_Validator", Any, Any, Any], Iterator[_Error]]
"""A keyword's check: ``(validator, keyword value, instance, schema) -> errors``."""


def _type(v: _Validator, types: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    names = [types] if isinstance(types, str) else list(types)
    if not any(_is_type(instance, name) for name in names):
        yield _Error(f"{instance!r} is not of type {', '.join(repr(name) for name in names)}")


def _enum(v: _Validator, options: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if all(not _equal(option, instance) for option in options):
        yield _Error(f"{instance!r} is not one of {options!r}")


def _const(v: _Validator, const: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if not _equal(instance, const):
        yield _Error(f"{const!r} was expected")


def _ref(v: _Validator, ref: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(ref, str):
        yield from v.descend(instance, v.resolve(ref))


def _properties(v: _Validator, properties: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, dict):
        for name, subschema in properties.items():
            if name in instance:
                yield from v.descend(instance[name], subschema, path=name)


def _required(v: _Validator, required: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, dict):
        for name in required:
            if name not in instance:
                yield _Error(f"{name!r} is a required property")


def _additional(instance: dict[str, Any], schema: Mapping[str, Any]) -> list[str]:
    known = schema.get("properties", {})
    patterns = "|".join(schema.get("patternProperties", {}))
    return [name for name in instance if name not in known and not (patterns and re.search(patterns, name))]


def _additional_properties(v: _Validator, allowed: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if not isinstance(instance, dict):
        return
    extras = _additional(instance, schema)
    if isinstance(allowed, dict):
        for name in extras:
            yield from v.descend(instance[name], allowed, path=name)
    elif not allowed and extras:
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            names = ", ".join(repr(name) for name in sorted(extras))
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            yield _Error(f"{names} {verb} not match any of the regexes: {patterns}")
        else:
            yield _Error(f"Additional properties are not allowed ({_extras(sorted(extras, key=str))} unexpected)")


def _pattern_properties(v: _Validator, patterns: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, dict):
        for pattern, subschema in patterns.items():
            for name, value in instance.items():
                if re.search(pattern, name):
                    yield from v.descend(value, subschema, path=name)


def _property_names(v: _Validator, names: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, dict):
        for name in instance:
            yield from v.descend(name, names)


def _dependent_required(v: _Validator, dependencies: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, dict):
        for name, needs in dependencies.items():
            if name in instance:
                for other in needs:
                    if other not in instance:
                        yield _Error(f"{other!r} is a dependency of {name!r}")


def _dependent_schemas(v: _Validator, dependencies: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, dict):
        for name, subschema in dependencies.items():
            if name in instance:
                yield from v.descend(instance, subschema)


def _items(v: _Validator, items: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if not isinstance(instance, list):
        return
    prefix = len(schema.get("prefixItems", []))
    extra = len(instance) - prefix
    if extra <= 0:
        return
    if items is False:
        rest = instance[prefix:] if extra != 1 else instance[prefix]
        noun = "items" if prefix != 1 else "item"
        yield _Error(f"Expected at most {prefix} {noun} but found {extra} extra: {rest!r}")
        return
    for index in range(prefix, len(instance)):
        yield from v.descend(instance[index], items, path=index)


def _prefix_items(v: _Validator, prefix: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, list):
        for index, (item, subschema) in enumerate(zip(instance, prefix)):
            yield from v.descend(item, subschema, path=index)


def _contains(v: _Validator, contains: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if not isinstance(instance, list):
        return
    least = schema.get("minContains", 1)
    most = schema.get("maxContains", len(instance))
    matches = 0
    for item in instance:
        if v.valid(contains, item):
            matches += 1
            if matches > most:
                error = _Error(f"Too many items match the given schema (expected at most {most})")
                error.keyword = "maxContains"
                yield error
                return
    if matches < least:
        if not matches:
            yield _Error(f"{instance!r} does not contain items matching the given schema")
        else:
            error = _Error(
                f"Too few items match the given schema (expected at least {least} but only {matches} matched)"
            )
            error.keyword = "minContains"
            yield error


def _unique_items(v: _Validator, unique: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if unique and isinstance(instance, list) and not _unique(instance):
        yield _Error(f"{instance!r} has non-unique elements")


def _size(kind: type[Sized], at_least: bool, message: str) -> Check:
    """``min``/``max`` of ``Items``, ``Length`` and ``Properties``: one check, three kinds."""

    def check(v: _Validator, limit: Any, instance: Any, schema: Any) -> Iterator[_Error]:
        if not isinstance(instance, kind):
            return
        if at_least and len(instance) < limit:
            yield _Error(f"{instance!r} {'should be non-empty' if limit == 1 else message}")
        elif not at_least and len(instance) > limit:
            yield _Error(f"{instance!r} {'is expected to be empty' if limit == 0 else message}")

    return check


def _pattern(v: _Validator, pattern: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if isinstance(instance, str) and not re.search(pattern, instance):
        yield _Error(f"{instance!r} does not match {pattern!r}")


def _bound(kind: str) -> Check:
    def check(v: _Validator, bound: Any, instance: Any, schema: Any) -> Iterator[_Error]:
        if not _is_type(instance, "number"):
            return
        if kind == "minimum" and instance < bound:
            yield _Error(f"{instance!r} is less than the minimum of {bound!r}")
        elif kind == "maximum" and instance > bound:
            yield _Error(f"{instance!r} is greater than the maximum of {bound!r}")
        elif kind == "exclusiveMinimum" and instance <= bound:
            yield _Error(f"{instance!r} is less than or equal to the minimum of {bound!r}")
        elif kind == "exclusiveMaximum" and instance >= bound:
            yield _Error(f"{instance!r} is greater than or equal to the maximum of {bound!r}")

    return check


def _multiple_of(v: _Validator, factor: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if not _is_type(instance, "number"):
        return
    if isinstance(factor, float):
        quotient = instance / factor
        try:
            failed = int(quotient) != quotient
        except OverflowError:  # a huge value over a small factor: exact arithmetic decides
            from fractions import Fraction

            failed = (Fraction(instance) / Fraction(factor)).denominator != 1
    else:
        failed = bool(instance % factor)
    if failed:
        yield _Error(f"{instance!r} is not a multiple of {factor}")


def _all_of(v: _Validator, schemas: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    for subschema in schemas:
        yield from v.descend(instance, subschema)


def _any_of(v: _Validator, schemas: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    found: list[_Error] = []
    for subschema in schemas:
        errors = list(v.descend(instance, subschema))
        if not errors:
            return
        found.extend(errors)
    yield _Error(f"{instance!r} is not valid under any of the given schemas", context=found)


def _one_of(v: _Validator, schemas: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    found: list[_Error] = []
    rest = iter(schemas)
    first_valid: Any = None
    for subschema in rest:
        errors = list(v.descend(instance, subschema))
        if not errors:
            first_valid = subschema
            break
        found.extend(errors)
    else:
        yield _Error(f"{instance!r} is not valid under any of the given schemas", context=found)
    also = [subschema for subschema in rest if v.valid(subschema, instance)]
    if also:
        also.append(first_valid)
        yield _Error(f"{instance!r} is valid under each of {', '.join(repr(s) for s in also)}")


def _not(v: _Validator, negated: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if v.valid(negated, instance):
        yield _Error(f"{instance!r} should not be valid under {negated!r}")


def _if(v: _Validator, condition: Any, instance: Any, schema: Any) -> Iterator[_Error]:
    if v.valid(condition, instance):
        if "then" in schema:
            yield from v.descend(instance, schema["then"])
    elif "else" in schema:
        yield from v.descend(instance, schema["else"])


_KEYWORDS: dict[str, Check] = {
    "$ref": _ref,
    "additionalProperties": _additional_properties,
    "allOf": _all_of,
    "anyOf": _any_of,
    "const": _const,
    "contains": _contains,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _dependent_schemas,
    "enum": _enum,
    "exclusiveMaximum": _bound("exclusiveMaximum"),
    "exclusiveMinimum": _bound("exclusiveMinimum"),
    "if": _if,
    "items": _items,
    "maxItems": _size(list, False, "is too long"),
    "maxLength": _size(str, False, "is too long"),
    "maxProperties": _size(dict, False, "has too many properties"),
    "maximum": _bound("maximum"),
    "minItems": _size(list, True, "is too short"),
    "minLength": _size(str, True, "is too short"),
    "minProperties": _size(dict, True, "does not have enough properties"),
    "minimum": _bound("minimum"),
    "multipleOf": _multiple_of,
    "not": _not,
    "oneOf": _one_of,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "prefixItems": _prefix_items,
    "properties": _properties,
    "propertyNames": _property_names,
    "required": _required,
    "type": _type,
    "uniqueItems": _unique_items,
}
