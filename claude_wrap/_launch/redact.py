"""Secrets out of what ``explain()`` shows: by name and by shape.

By name: a value under a key, variable or flag whose name says it holds a
secret (``API_KEY``, ``DB_PASS``, ``headers``, ``--auth-token`` ...) is
shown as ``<redacted>``, however short. By shape, wherever it appears: the
password of a URL (``scheme://user:<redacted>@host``) and a token standing
as its whole user part (``https://<redacted>@host``), webhook URLs (Slack,
Discord), AWS secret access keys, secret-named query parameters
(``?access_token=<redacted>``), ``Bearer``/``Basic`` credentials and
``name: value`` / ``name=value`` pairs with a secret name, tokens with a
known prefix (``sk-``, ``ghp_``, ``xoxb-``, ``AKIA`` ...), JSON web tokens,
and long random-looking strings (hex keys, base64 tokens).

The shapes err on the side of hiding: a long random identifier that is no
secret is shown redacted too. Nothing here decides what reaches the binary:
MCP and settings JSON always go through private files (see ``_launch.argv``).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any

__all__ = ["REDACTED", "redact_argv", "redact_env", "redact_json", "redact_text", "secret_name"]

REDACTED = "<redacted>"

# Substrings of variable and JSON key names that hold secrets (environment
# variables, an MCP server's ``env``/``headers``, settings ``env`` ...).
_SECRET_NAME = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|HEADER|COOKIE)", re.IGNORECASE)

# Words of flag and query-parameter names that hold secrets (whole words, so
# ``--max-thinking-tokens`` is no secret and ``--api-key`` is).
_SECRET_WORDS = frozenset(
    {
        "key",
        "apikey",
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "pass",
        "credential",
        "credentials",
        "auth",
        "authorization",
        "bearer",
        "sig",
        "signature",
        "cookie",
    }
)

_URL_PASSWORD = re.compile(r"(://[^/@\s:]*):[^/@\s]*@")
_URL_USER = re.compile(r"(://)([^/@\s:]+)@")  # a token as the whole user part (https://<token>@host)
_WEBHOOK = re.compile(
    r"((?:hooks\.slack\.com/(?:services|workflows|triggers)|discord(?:app)?\.com/api/webhooks)/)[^\s\"'?#]+"
)
# An AWS secret access key: 40 characters of base64, "/" and "+" included.
_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_QUERY_PARAM = re.compile(r"([?&;]([^=&#\s]+)=)([^&#\s\"']+)")
_AUTH_SCHEME = re.compile(r"\b(Bearer|Basic|Token|Digest)(\s+)[A-Za-z0-9._~+/=-]{6,}", re.IGNORECASE)
_ASSIGNED = re.compile(r"([A-Za-z][\w.-]*)(\s*=\s*\"?)([^\s\"&,;]+)")  # name=value, anywhere
_HEADER_LINE = re.compile(r"^(\s*)([A-Za-z][\w.-]*)(\s*:\s*)(\S.*)$", re.MULTILINE)  # Name: value
_KNOWN_TOKENS = re.compile(
    r"\b(?:"
    r"sk-[A-Za-z0-9_-]{16,}"  # Anthropic, OpenAI
    r"|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}"
    r"|xox[abprs]-[A-Za-z0-9-]{10,}"  # Slack
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"  # AWS access key ids
    r"|AIza[0-9A-Za-z_-]{30,}"  # Google
    r"|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_-]{30,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"  # JWT
    r")"
)
_LONG_RUN = re.compile(r"[A-Za-z0-9_-]{24,}")


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)  # camelCase → camel Case
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def secret_name(name: str) -> bool:
    """Whether a variable or JSON key name says its value is a secret
    (``API_KEY``, ``DB_PASS``, ``pwd`` ...)."""
    return _SECRET_NAME.search(name) is not None or _secret_words(name)


def _secret_words(name: str) -> bool:
    """Whether a flag or parameter name has a word that says "secret"."""
    words = _words(name)
    return any(w in _SECRET_WORDS for w in words) or "".join(words[-2:]) == "apikey"


def _random_looking(run: str) -> bool:
    """A hex key, or a token: irregular mixes of letters and digits (an
    identifier's words are each of one kind: ``claude-sonnet-4-5-2025``)."""
    pieces = [p for p in re.split(r"[-_]+", run) if p]
    if any(len(p) >= 32 and all(c in "0123456789abcdefABCDEF" for c in p) and not p.isdigit() for p in pieces):
        return True
    if sum(c.isdigit() for c in run) < 2 or not any(len(p) >= 8 and _kinds(p) >= 2 for p in pieces):
        return False
    counts = Counter(run)
    entropy = -sum(n / len(run) * math.log2(n / len(run)) for n in counts.values())
    return entropy >= 3.5


def _kinds(piece: str) -> int:
    """How many of upper case, lower case and digits ``piece`` mixes."""
    return sum((any(c.isupper() for c in piece), any(c.islower() for c in piece), any(c.isdigit() for c in piece)))


def _token_user(user: str) -> bool:
    """Whether a URL's user part is a credential, not a name (``alice``)."""
    return len(user) >= 20 or _KNOWN_TOKENS.fullmatch(user) is not None or _random_looking(user)


def _aws_secret(run: str) -> bool:
    """Random base64, not a path of words: all three kinds of character, and
    the spread of a random string (words repeat their letters)."""
    if run.startswith("/") or _kinds(run) < 3:
        return False
    counts = Counter(run)
    return -sum(n / len(run) * math.log2(n / len(run)) for n in counts.values()) >= 4.2


def redact_text(text: str) -> str:
    """``text`` with every secret-shaped part replaced by ``<redacted>``."""
    text = _URL_PASSWORD.sub(rf"\1:{REDACTED}@", text)
    text = _URL_USER.sub(lambda m: m.group(1) + REDACTED + "@" if _token_user(m.group(2)) else m.group(), text)
    text = _WEBHOOK.sub(rf"\1{REDACTED}", text)
    text = _AWS_SECRET.sub(lambda m: REDACTED if _aws_secret(m.group()) else m.group(), text)
    text = _QUERY_PARAM.sub(lambda m: m.group(1) + REDACTED if _secret_words(m.group(2)) else m.group(), text)
    text = _AUTH_SCHEME.sub(rf"\1\2{REDACTED}", text)
    text = _ASSIGNED.sub(lambda m: m.group(1) + m.group(2) + REDACTED if _secret_words(m.group(1)) else m.group(), text)
    text = _HEADER_LINE.sub(
        lambda m: m.group(1) + m.group(2) + m.group(3) + REDACTED if _secret_words(m.group(2)) else m.group(), text
    )
    text = _KNOWN_TOKENS.sub(REDACTED, text)
    return _LONG_RUN.sub(lambda m: REDACTED if _random_looking(m.group()) else m.group(), text)


def _is_secret_flag(word: str) -> bool:
    return word.startswith("-") and "=" not in word and _secret_words(word.lstrip("-"))


def redact_json(value: Any, *, by_name: bool = True) -> Any:
    """A copy of a JSON value with secrets redacted: by shape in every
    string, by key name (``by_name``) for whole values, and the item after
    a secret-named flag in a list (an MCP server's ``args``)."""
    if isinstance(value, dict):
        return {
            k: _hidden(v) if by_name and secret_name(str(k)) else redact_json(v, by_name=by_name)
            for k, v in value.items()
        }
    if isinstance(value, list):
        out: list[Any] = []
        for i, item in enumerate(value):
            after_flag = i > 0 and isinstance(value[i - 1], str) and _is_secret_flag(value[i - 1])
            out.append(REDACTED if after_flag and isinstance(item, str) else redact_json(item, by_name=by_name))
        return out
    if isinstance(value, str):
        return redact_text(value)
    return value


def _hidden(value: Any) -> Any:
    """Every leaf of ``value`` hidden, its structure (header names ...) kept."""
    if isinstance(value, dict):
        return {k: _hidden(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_hidden(v) for v in value]
    return REDACTED if value not in (None, "") else value


def redact_env(name: str, value: str | None) -> str | None:
    """An environment variable's value for display."""
    if value is None:
        return None
    if secret_name(name) and value:
        return REDACTED
    return redact_text(value)


def redact_argv(argv: list[str]) -> list[str]:
    """A command line for display: JSON-valued words redacted as JSON, the
    value after a secret-named flag hidden, every word redacted by shape."""
    out: list[str] = []
    for i, word in enumerate(argv):
        if i > 0 and _is_secret_flag(argv[i - 1]):
            out.append(REDACTED)
        elif word.startswith("{"):
            try:
                out.append(json.dumps(redact_json(json.loads(word))))
            except ValueError:
                out.append(redact_text(word))
        else:
            out.append(redact_text(word))
    return out
