"""Checking tool arguments against a JSON Schema, with the official package's verdicts.

The model reads the complaint when its arguments do not fit, so the check
must pick and word the same error as the official package does. That
package calls ``jsonschema.validate``; so do we: the same library gives the
same verdict and message for every keyword and draft, where a copy of its
rules would drift. It is imported on the first check, not with claude_wrap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["validation_message"]


def validation_message(schema: Any, instance: Any) -> str | None:
    """The message of the most relevant way ``instance`` breaks ``schema``, or ``None``.

    A schema that is itself invalid, or a ``$ref`` that resolves nowhere,
    raises ``jsonschema``'s own error: the caller reports ``str()`` of it,
    as the official package does.
    """
    import jsonschema

    try:
        jsonschema.validate(instance=instance, schema=schema)
    except jsonschema.ValidationError as exc:
        return str(exc.message)
    return None
