"""A batch's shared pace of model requests: ``run_many(rate_limit=...)``.

The binaries call the API themselves, so the fleet cannot count a request
before it goes. It paces them at the two points where the next request
waits on our side: a task's prompt is written, and a tool call starts (its
result goes back to the model next). There, a task waits while the batch's
budget is spent. What the model answered (each reply, its tokens) and every
rate-limited retry the binary reports (``api_retry`` with status 429) are
spent from that budget as they are read, by every node of the batch alike:
one ``Bucket`` per batch, in this process (local) or in a small Ray actor
(``RateActor``) that the nodes' workers ask.

A 429 anywhere holds every task of the batch for the retry delay the binary
was told, so 200 agents do not each find the limit alone. It paces rather
than caps: the requests of tasks that passed before the budget ran out
still go (at most one per running task), and requests the binary makes on
its own (a background agent's wake-up turn, its own retries) are spent but
not held.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Protocol

import anyio

__all__ = ["Bucket", "LocalPacer", "Pacer", "RateActor", "RateLimit", "RayPacer"]

# A wait is re-checked at least this often: a hold or a refill may come sooner
# than the wait first computed.
_RECHECK_S = 1.0


@dataclass(frozen=True)
class RateLimit:
    """The pace of a batch's model requests, shared by all its nodes.

    ``requests_per_minute``: model replies (and rate-limited retries) a
    minute. ``tokens_per_minute``: tokens a minute, input (cache writes
    included) and output together, as the replies report them. Either or
    both. ``burst_s``: how many seconds of the budget may go at once (the
    bucket's size; at the start it is full).
    """

    requests_per_minute: float | None = None
    tokens_per_minute: float | None = None
    burst_s: float = 60.0

    def __post_init__(self) -> None:
        if self.requests_per_minute is None and self.tokens_per_minute is None:
            raise ValueError("RateLimit needs requests_per_minute, tokens_per_minute or both")
        for name in ("requests_per_minute", "tokens_per_minute", "burst_s"):
            value = getattr(self, name)
            if value is not None and not (
                isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0
            ):
                raise ValueError(f"RateLimit.{name} must be a positive number, got {value!r}")


class _Level:
    """One dimension of the bucket: what may still go, refilled as time passes."""

    def __init__(self, per_minute: float, burst_s: float, now: float) -> None:
        self.rate = per_minute / 60.0
        self.size = self.rate * burst_s
        self.level = self.size
        self._at = now

    def refill(self, now: float) -> None:
        self.level = min(self.size, self.level + self.rate * max(0.0, now - self._at))
        self._at = now

    def wait(self) -> float:
        """Seconds until something may go again (0: now)."""
        return 0.0 if self.level > 0 else (-self.level) / self.rate + 1e-3


class Bucket:
    """The batch's budget, as plain state: no clock of its own (``now`` is
    passed in), no I/O, so it runs the same in a Ray actor and in tests."""

    def __init__(self, limit: RateLimit, now: float) -> None:
        self._requests = (
            None if limit.requests_per_minute is None else _Level(limit.requests_per_minute, limit.burst_s, now)
        )
        self._tokens = None if limit.tokens_per_minute is None else _Level(limit.tokens_per_minute, limit.burst_s, now)
        self._held_until = now

    def _levels(self, now: float) -> list[_Level]:
        levels = [level for level in (self._requests, self._tokens) if level is not None]
        for level in levels:
            level.refill(now)
        return levels

    def delay(self, now: float) -> float:
        """Seconds a task is to wait before its next request (0: it may go)."""
        waits = [level.wait() for level in self._levels(now)]
        return max([self._held_until - now, *waits, 0.0])

    def spend(self, requests: int, tokens: int, now: float) -> None:
        """Replies read: take them from the budget (it may go below zero)."""
        self._levels(now)
        if self._requests is not None:
            self._requests.level -= requests
        if self._tokens is not None:
            self._tokens.level -= tokens

    def hold(self, seconds: float, now: float) -> None:
        """The API said to slow down: nothing goes for ``seconds``."""
        self._held_until = max(self._held_until, now + max(0.0, seconds))


class Pacer(Protocol):
    """A node's side of the batch's bucket."""

    async def wait(self) -> None:
        """Until this task's next request may go."""

    def spent(self, requests: int, tokens: int) -> None:
        """Replies read (sent on in the background where the bucket is remote)."""

    def held(self, seconds: float) -> None:
        """A rate-limited retry: hold the batch for ``seconds``."""


class RateActor:
    """The batch's bucket on this process's clock: a Ray batch's, in an
    actor of its own (``ray.remote`` is applied by the backend; this module
    does not import Ray), and the local backend's, in this process."""

    def __init__(self, limit: RateLimit) -> None:
        self._bucket = Bucket(limit, time.monotonic())

    def delay(self) -> float:
        return self._bucket.delay(time.monotonic())

    def spend(self, requests: int, tokens: int) -> None:
        self._bucket.spend(requests, tokens, time.monotonic())

    def hold(self, seconds: float) -> None:
        self._bucket.hold(seconds, time.monotonic())


class LocalPacer:
    """The bucket in this process (the local backend)."""

    def __init__(self, limit: RateLimit) -> None:
        self._bucket = RateActor(limit)

    async def wait(self) -> None:
        while (delay := self._bucket.delay()) > 0:
            await anyio.sleep(min(delay, _RECHECK_S))

    def spent(self, requests: int, tokens: int) -> None:
        self._bucket.spend(requests, tokens)

    def held(self, seconds: float) -> None:
        self._bucket.hold(seconds)


class RayPacer:
    """A node worker's handle on the batch's ``RateActor``."""

    def __init__(self, actor: Any) -> None:
        self._actor = actor

    async def wait(self) -> None:
        while (delay := await self._actor.delay.remote()) > 0:
            await anyio.sleep(min(delay, _RECHECK_S))

    def spent(self, requests: int, tokens: int) -> None:
        self._actor.spend.remote(requests, tokens)

    def held(self, seconds: float) -> None:
        self._actor.hold.remote(seconds)
