"""The Dask example on a real LocalCluster: the same results as `shellgate check --jsonl`."""

import glob
import json
import os
import subprocess
import sys
import tomllib

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import shellgate  # noqa: E402
from shellgate_fleet import judge_lines, judge_shards  # noqa: E402


def corpus_commands():
    cmds = []
    for path in sorted(glob.glob(os.path.join(REPO, "corpus", "*.toml"))):
        with open(path, "rb") as f:
            cmds += [c["cmd"] for c in tomllib.load(f).get("case", []) if isinstance(c.get("cmd"), str)]
    return cmds


@pytest.fixture(scope="module")
def shards(tmp_path_factory):
    cmds = corpus_commands()
    assert len(cmds) > 500
    d = tmp_path_factory.mktemp("shards")
    paths = []
    for i in range(4):
        p = d / f"shard-{i}.jsonl"
        p.write_text("".join(json.dumps({"cmd": c}) + "\n" for c in cmds[i::4]))
        paths.append(str(p))
    return paths


def cli(paths):
    out = []
    for p in paths:
        r = subprocess.run([shellgate.binary(), "check", "--no-config", "--cwd", "/", "--home", "/root",
                            "--jsonl", p], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out += [json.loads(l) for l in r.stdout.splitlines()]
    return out


def test_a_dask_local_cluster_gives_the_cli_results(shards):
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.upload_file(os.path.join(HERE, "shellgate_fleet.py"))
        lines = judge_shards(shards, client)
        workers = len(client.scheduler_info()["workers"])
    assert workers == 2
    assert [json.loads(l) for l in lines] == cli(shards)


def test_unreadable_lines_are_denied_not_dropped():
    out = [json.loads(l) for l in judge_lines(['{"cmd": "ls"}', "not json", '{"x": 1}', "", '{"cmd": "rm -rf /"}'])]
    assert [o["decision"] for o in out] == ["allow", "deny", "deny", "deny"]
    assert out[1]["error"] and out[2]["error"]
