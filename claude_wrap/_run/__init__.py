"""One live binary: from spawn to the end of the run.

Owns: starting a run (``connect``), the connection that reads frames, answers
control requests and hands out messages (``protocol``), the user's own
``Transport`` behind the same connection (``custom_transport``), tasks owned by
an object (``detached``), knowing when a run is over (``run_end``),
mirroring transcripts into a store (``mirror``) and OpenTelemetry spans
(``tracing``).

May import: every lower layer: the foundation modules, ``_process``,
``_mcp``, ``_sessions.disk_helpers``, ``_wire`` and ``_launch``. The public surfaces
(``query``, ``ClaudeSDKClient``, ``ClaudePool``, ``sync``) sit above it.
"""
