"""Stream-json as data: what travels on the binary's pipes.

Owns: the public message and content-block dataclasses (``messages``), the
typed shapes of their fields (``shapes``), typed views of system frames
(``system_views``), control request and response types (``control``), hook
and permission types and their conversions (``hooks``, ``permissions``),
decoding lines into messages (``codec``) and the stream accumulator
(``stream``).

May import: the foundation modules, ``claude_wrap._mcp`` (server
configurations inside control frames) and ``claude_wrap._sessions``
(session keys inside mirror frames). Nothing here starts or configures a
run.
"""
