"""A Ray cluster of several nodes on this machine, for the fleet tests and
benchmarks: a head and ``workers`` worker nodes, each its own raylet, as
``ray.cluster_utils.Cluster`` starts them.

The nodes' workers import this checkout's claude_wrap (and these test
helpers), whatever is installed. Node deaths are noticed within a few
seconds (health checks every second). Leaving the block shuts the driver
and every node down.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Where code pickled by reference is found on the nodes: the package, the
# test helpers, and the test modules (they define task functions).
IMPORT_PATHS = [ROOT, ROOT / "tests" / "support", ROOT / "tests" / "fleet"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def ray_cluster(workers: int = 2, *, cpus: int = 1) -> Iterator[Any]:
    """A started cluster (``Cluster``) with this process connected to it."""
    import ray
    from ray.cluster_utils import Cluster

    system = {"health_check_period_ms": 1000, "health_check_failure_threshold": 4}
    head = {"num_cpus": cpus, "include_dashboard": False, "dashboard_port": _free_port(), "_system_config": system}
    cluster = Cluster(initialize_head=True, head_node_args=head)
    try:
        for _ in range(workers):
            cluster.add_node(num_cpus=cpus)
        cluster.wait_for_nodes()
        path = os.pathsep.join(str(p) for p in IMPORT_PATHS)
        ray.init(address=cluster.address, runtime_env={"env_vars": {"PYTHONPATH": path}}, log_to_driver=False)
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()
