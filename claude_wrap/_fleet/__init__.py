"""The machinery behind :mod:`claude_wrap.fleet`: tasks and outcomes, the
worker that runs tasks on one node, the batch that spreads them over nodes,
and the two backends (this process, or a Ray cluster)."""
