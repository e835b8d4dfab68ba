"""Sessions at rest: transcripts on disk and in stores.

Owns: reading and writing the binary's JSONL transcripts (``transcripts``,
``chain``, ``edits``), the session helpers (``disk_helpers``: list, read, fork,
rename, tag, delete), the ``SessionStore`` protocol and its in-memory store
(``store``), summaries kept beside a store (``summary``), the same helpers
over a store (``store_helpers``) and the SQLite, PostgreSQL and Redis
stores.

May import: the foundation modules only. A live run mirrors into a store
from ``claude_wrap._run.mirror``; nothing here knows a run exists.
"""
