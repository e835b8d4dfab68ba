"""``python -m claude_wrap``: the ``claude-wrap`` command line."""

import sys

from claude_wrap._cli import main

if __name__ == "__main__":
    sys.exit(main())
