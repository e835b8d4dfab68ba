"""The binary as a process.

Owns: finding the binary (``binary``), fetching and verifying it
(``fetch``), spawning it, framing its pipes into lines and shutting it down
(``transport``), and the guard that stops it if this process dies
(``guard``, also run as a standalone script).

May import: the foundation modules (``claude_wrap._exceptions``,
``_lazy``, ``_distribution``, ``_callbacks``, ``_version``) only. Nothing here
knows what the lines mean.
"""
