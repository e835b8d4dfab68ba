"""A misspelt public name is a type error, not an Any: the package's lazy
module ``__getattr__`` exists only at run time. (mypy --strict reports an
ignore that is not needed, so this line fails the check if the name ever
type-checks.)"""

import claude_wrap

claude_wrap.ClaudeAgentOptionz()  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]
