"""In-process MCP servers: tools written in Python that the binary calls.

Owns: the server configurations accepted in ``mcp_servers`` (``config``),
``@tool`` and its input schemas (``tools``, ``tool_models``,
``json_schema``), the JSON-RPC server answering the binary's ``mcp_message``
requests (``server``) and serving an ``mcp`` low-level server
(``interop``).

May import: the foundation modules only. It knows nothing of the binary's
stream: the run hands it each JSON-RPC message and sends back the answer.
"""
