"""Judge agents' commands at fleet scale on an engine a team already runs.

The unit of work is a shard of JSONL lines in the format ``shellgate check --jsonl`` reads
(``{"cmd": ...}`` per line); :func:`judge_lines` turns one shard's lines into the result
lines ``shellgate check --jsonl`` writes (``cmd``, ``decision``, ``findings`` with byte
spans, ``decided_by``, ``reason``), by ``shellgate.check_many`` in process. Any engine that
can map a function over partitions of text lines runs it:

- Dask:  ``dask.bag.read_text(paths, files_per_partition=1).map_partitions(judge_lines)``
  (:func:`judge_shards`, and ``python shellgate_fleet.py SHARD..`` on a ``LocalCluster``);
- Spark: ``sc.textFile(path).mapPartitions(judge_lines)``;
- Ray:   ``ray.data.read_text(paths).map_batches(lambda b: {"out": judge_lines(list(b["text"]))})``.

Each worker needs the ``shellgate`` package (``pip install shellgate``) and the same config
(``config=False`` judges by the analyzer alone, as ``--no-config`` does). The engine gives
the parallelism: a partition is judged on one thread (``jobs=1``) so workers do not
oversubscribe cores.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any, Iterable

import shellgate


def _error_line(message: str) -> str:
    # As the CLI answers a line it cannot read: deny, never allow.
    return json.dumps({"cmd": None, "decision": "deny", "findings": [], "error": message}, ensure_ascii=False)


def judge_lines(lines: Iterable[str], *, config: Any = False, cwd: str | None = "/",
                home: str | None = "/root", jobs: int = 1) -> list[str]:
    """One shard's ``{"cmd": ...}`` lines → ``shellgate check --jsonl`` result lines."""
    slots: list[str | None] = []
    commands: list[str] = []
    where: list[int] = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        try:
            cmd = json.loads(line).get("cmd")
        except (ValueError, AttributeError) as exc:
            slots.append(_error_line(f"line {n} is not a JSON object with a cmd: {exc}"))
            continue
        if not isinstance(cmd, str):
            slots.append(_error_line(f"line {n} has no string cmd"))
            continue
        where.append(len(slots))
        slots.append(None)
        commands.append(cmd)
    verdicts = shellgate.check_many(commands, jobs=jobs, config=config, cwd=cwd, home=home)
    for i, v in zip(where, verdicts):
        slots[i] = json.dumps(v.to_dict(), ensure_ascii=False)
    return [s for s in slots if s is not None]


def judge_shards(paths: list[str], client: Any = None, **kwargs: Any) -> list[str]:
    """Every shard judged on the Dask cluster of ``client`` (or the default scheduler);
    result lines in shard order, each shard's in line order."""
    import dask.bag as db

    bag = db.read_text(paths, files_per_partition=1)
    judged = bag.map_partitions(lambda part: judge_lines(list(part), **kwargs))
    if client is not None:
        return client.compute(judged).result()
    return judged.compute()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shards", nargs="+", help="JSONL files of {\"cmd\": ...} lines")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="LocalCluster worker processes")
    ap.add_argument("--out", help="write result lines here (default: stdout)")
    args = ap.parse_args()
    from dask.distributed import Client, LocalCluster

    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
    client.upload_file(os.path.abspath(__file__))
    t0 = time.perf_counter()
    lines = judge_shards(args.shards, client)
    took = time.perf_counter() - t0
    out = open(args.out, "w") if args.out else sys.stdout
    for line in lines:
        out.write(line + "\n")
    workers = len(client.scheduler_info()["workers"])
    print(f"{len(lines)} commands in {took:.2f} s on {workers} workers: "
          f"{len(lines) / took:.0f}/s, {len(lines) / took / workers:.0f}/s per worker", file=sys.stderr)
    client.close()
    if cluster is not None:
        cluster.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
