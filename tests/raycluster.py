"""A two-node Ray cluster on this machine for tests: ``python -m tests.raycluster TEMP_DIR``.

Ray's own test utility (``ray.cluster_utils.Cluster``) starts real node processes: a head (GCS,
raylet) and a second raylet, one CPU each, every one on the loopback address (the caller sets
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``, which keeps Ray from trading 127.0.0.1 for the
machine's outward address). It prints the cluster's address, then the node ids, one line each,
and stops the cluster when its stdin closes. It never writes ``/tmp/ray/ray_current_cluster``,
so no other Ray user on this machine (``ray.init()``, ``address="auto"``) finds this cluster,
and never removes someone else's."""

from __future__ import annotations

import socket
import sys

import ray._common.utils
import ray._private.utils
from ray.cluster_utils import Cluster


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(temp_dir: str) -> None:
    ray._private.utils.write_ray_address = lambda *a, **k: None
    ray._common.utils.reset_ray_address = lambda *a, **k: None
    node = dict(num_cpus=1, object_store_memory=80 * 1024 * 1024, include_dashboard=False, node_ip_address="127.0.0.1")
    cluster = Cluster(
        initialize_head=True,
        head_node_args=dict(
            node,
            temp_dir=temp_dir,
            dashboard_port=free_port(),  # Ray's fixed ports may be taken by another Ray on this machine
            dashboard_agent_listen_port=free_port(),
        ),
    )
    try:
        cluster.add_node(**node)
        cluster.wait_for_nodes()
        print(cluster.address, flush=True)
        for n in cluster.list_all_nodes():
            print(n.node_id, flush=True)
        sys.stdin.read()
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    main(sys.argv[1])
