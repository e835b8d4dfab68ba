"""The machinery behind :mod:`claude_wrap.fleet`: many agents on one node or
spread over a Ray cluster.

Owns: tasks, outcomes and the fleet's errors (``types``), what an attempt
reports while it runs and what is kept of it (``journal``), how an attempt
starts or resumes (``resume``), one attempt on a node (``runner``), the
worker that runs tasks on one node (``worker``), the batch that spreads
them over nodes (``batch``), its progress display (``progress``) and the
two backends: this process (``local``) or a Ray cluster (``ray``,
``ray_actor``).

May import: every lower layer, ``query`` and ``ClaudeSDKClient``
(``_query``, ``_client``) and ``ClaudePool`` (``_pool``). ``fleet`` and
``sync`` sit above it.
"""
