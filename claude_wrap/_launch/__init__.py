"""From options to a launch: everything decided before the binary starts.

Owns: ``ClaudeAgentOptions`` and its checks (``options``, ``checks``), the
structured option values (``option_types``, ``agents``), the command line and
environment (``argv``, ``trace_context``), the control plane: the handlers
for the binary's requests and the ``initialize`` fields that register them
(``control_plane``), and ``explain()`` with its redaction (``explain``,
``redact``). Building a launch has no side effects beyond temporary files
that ``Launch.cleanup`` removes.

May import: the foundation modules, ``claude_wrap._process`` (discovery),
``claude_wrap._mcp``, ``claude_wrap._sessions`` and ``claude_wrap._wire``.
"""
