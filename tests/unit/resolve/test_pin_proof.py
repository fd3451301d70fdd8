"""The resolver proves what pin writes: real pip and real uv resolve the user's requirements (or
the environment's top-level distributions) under the constraints before they are printed, on a
package index on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib.resolvers import pip_resolve, uv_resolve

ZERO3 = {
    "gradient_clipping": 1.0,
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
}


@pytest.mark.parametrize("resolver", ["pip", "uv"])
def test_unpinned_requirements_are_pinned_to_what_the_resolver_picks(
    tmp_path: Path, resolver: str
) -> None:
    # The newest trl the range allows (0.22.0) needs transformers>=4.55.0; the user pinned
    # 4.46.0, so the resolver installs trl 0.16.0. That is what pin writes, and says so.
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("transformers==4.46.0\ntrl>=0.15\n")
    projects = {
        "transformers": [Dist("transformers", v) for v in ("4.46.0", "4.55.0")],
        "trl": [Dist("trl", "0.15.2", requires=["transformers>=4.46.0"]),
                Dist("trl", "0.16.0", requires=["transformers>=4.46.0"]),
                Dist("trl", "0.22.0", requires=["transformers>=4.55.0"])],
    }  # fmt: skip
    with IndexServer(projects) as index:
        result = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
                          "--resolver", resolver, "--format", "json"])  # fmt: skip
        text = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
                        "--resolver", resolver])  # fmt: skip
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(text.stdout)
        by_pip = pip_resolve(
            index.url, constraints, ["transformers==4.46.0", "trl>=0.15"], tmp_path
        )
        by_uv = uv_resolve(index.url, constraints, ["transformers==4.46.0", "trl>=0.15"], tmp_path)
    assert result.exit_code == 0, result.stderr
    document = result.json()
    pins = {p["name"]: p for p in document["pins"]}
    assert pins["trl"]["version"] == "0.16.0" and pins["trl"]["action"] == "resolved"
    assert pins["transformers"]["action"] == "kept"
    assert document["proof"]["status"] == "proven"
    assert document["proof"]["detail"].startswith(f"{resolver} ")
    assert document["proof"]["resolved"] == {"transformers": "4.46.0", "trl": "0.16.0"}
    assert " ".join(text.stdout.split()).count("trl==0.16.0 # resolved") == 1
    assert by_pip == by_uv == {"transformers": "4.46.0", "trl": "0.16.0"}


def test_a_refused_proof_is_said_and_exits_1(tmp_path: Path) -> None:
    # mylib's release on the index pins deepspeed==0.14.2 (the installed copy says nothing):
    # the escape, 0.14.3, is not installable with it, and the resolver says so.
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "mylib": "1.0"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [Dist("deepspeed", v) for v in ("0.14.2", "0.14.3")],
        "mylib": [Dist("mylib", "1.0", requires=["deepspeed==0.14.2"])],
    }
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                          "--deepspeed-config", str(config)])  # fmt: skip
    assert result.exit_code == 1
    assert "# PROOF FAILED: uv: " in result.stdout and "mylib" in result.stdout
    assert "the resolver refused the constraints" in result.stderr


def test_environment_proof_resolves_the_top_level_distributions(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "torch": "2.3.0"})
    make_dist(site, "trainer-app", "1.0", requires=["deepspeed", "torch"])
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [Dist("deepspeed", v, requires=["torch"]) for v in ("0.14.2", "0.14.3")],
        "torch": [Dist("torch", "2.3.0")],
        "trainer-app": [Dist("trainer-app", "1.0", requires=["deepspeed", "torch"])],
    }
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                          "--deepspeed-config", str(config), "--resolver", "pip",
                          "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    proof = result.json()["proof"]
    assert proof["status"] == "proven" and proof["detail"].startswith("pip ")
    assert proof["requirements"] == ["deepspeed", "torch", "trainer-app"]
    assert proof["resolved"]["deepspeed"] == "0.14.3"


def test_private_and_local_distributions_are_left_out_of_the_proof(tmp_path: Path) -> None:
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2", "in-house-tools": "3.1"})
    local = make_dist(site, "my-trainer", "0.1", requires=["deepspeed"])
    (local / "direct_url.json").write_text(
        '{"url": "file:///src/my-trainer", "dir_info": {"editable": true}}'
    )
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {"deepspeed": [Dist("deepspeed", v) for v in ("0.14.2", "0.14.3")]}
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                          "--deepspeed-config", str(config), "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    proof = result.json()["proof"]
    assert proof["status"] == "proven", proof
    assert proof["requirements"] == [
        "deepspeed"
    ]  # not in-house-tools (no index has it), not the editable


def test_freeze_tells_what_the_resolve_brought_in_from_what_is_installed(tmp_path: Path) -> None:
    # The installed deepspeed's copy names no requirement; its releases on the index require
    # torch, which requires filelock: the proof's install has both, the machine neither.
    site = make_env(tmp_path / "site", {"deepspeed": "0.14.2"})
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3))
    projects = {
        "deepspeed": [Dist("deepspeed", v, requires=["torch"]) for v in ("0.14.2", "0.14.3")],
        "torch": [Dist("torch", "2.3.0", requires=["filelock"])],
        "filelock": [Dist("filelock", "3.16.1")],
    }
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--no-probe", "--index-url", index.url,
                          "--deepspeed-config", str(config), "--resolver", "pip",
                          "--freeze"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    comments = {
        line.split("==")[0]: " ".join(line.split("#", 1)[1].split())
        for line in result.stdout.splitlines()
        if line and not line.startswith("#")
    }
    assert comments["deepspeed"].startswith("upgrade from 0.14.2")
    assert comments["filelock"] == "brought in by the resolve (not installed)"
    assert "installed" not in comments["torch"] or "not installed" in comments["torch"]
