"""``GeneratorView``: an object iterated as the async generator it wraps.

``query()`` and a client's ``receive_*()`` hand out such a view rather than
the generator itself: ``async for`` then holds the view, so leaving the
loop early drops it, and its ``__del__`` (each subclass its own) closes the
generator at a moment that suits the run. Everything else, ``asend()``,
``athrow()`` and ``aclose()`` included, goes to the generator unchanged.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # nothing of the wire is loaded before a run starts
    from claude_wrap._wire.messages import Message

__all__ = ["GeneratorView"]

_View = TypeVar("_View", bound="GeneratorView")


class GeneratorView:
    """The async generator ``_gen``, iterated as it is."""

    __slots__ = ("_gen",)

    def __init__(self, gen: AsyncGenerator[Message, None]) -> None:
        self._gen = gen

    def __aiter__(self: _View) -> _View:
        # Itself, not the generator: see the module's docstring.
        return self

    def __anext__(self) -> Awaitable[Message]:
        return self._gen.__anext__()

    def asend(self, value: None) -> Awaitable[Message]:
        return self._gen.asend(value)

    def athrow(self, *args: Any) -> Awaitable[Message]:
        return self._gen.athrow(*args)

    def aclose(self) -> Awaitable[None]:
        return self._gen.aclose()
