"""`compat pin` keeps what the user meant: the stated usage's capabilities (no trl below 0.14.0
for GRPO), the user's exact pins, the rule's own fix with the companions its Requires-Dist
needs. A real index on 127.0.0.1, environments on disk, real pip consuming the result, and
`compat doctor` on what pip resolved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli
from tests.dists import make_dist, make_env
from tests.indexserver import Dist, IndexServer
from tests.lib import paths
from tests.lib.doctor import doctor_findings
from tests.lib.hardware import two_gpus
from tests.lib.resolvers import pip_resolve

GRPO_VLLM = ["--set", "trainer=grpo", "--set", "use_vllm=true"]
INPROCESS = "trl-grpo-inprocess-vllm-device-mismatch"
INPROCESS_071 = "trl-grpo-inprocess-vllm-device-mismatch-vllm-0.7.1"  # TRL's pin: reported


def grpo_index(*, with_fix: bool = True) -> dict[str, list[Dist]]:
    """Releases with the Requires-Dist that matter here: vLLM pins torch exactly and vLLM 0.7.2+
    needs transformers>=4.48.2 (issue #9; the vLLM torch pins per release: research VL-01).
    With `with_fix`, no trl 0.16 (the rule's own fix): the escape on A100s is vLLM 0.7.2
    (FlashAttention backend; trl 0.15.2 pins it), on V100s 0.8.0 (vLLM #13468, with torch 2.6)."""
    vllm = [
        Dist("vllm", "0.6.6.post1", requires=["torch==2.5.1", "transformers>=4.45.2"]),
        Dist("vllm", "0.7.0", requires=["torch==2.5.1", "transformers>=4.45.2"]),
        Dist("vllm", "0.7.1", requires=["torch==2.5.1", "transformers>=4.45.2"]),
    ]
    if with_fix:
        vllm += [
            Dist("vllm", "0.7.2", requires=["torch==2.5.1", "transformers>=4.48.2"]),
            Dist("vllm", "0.7.3", requires=["torch==2.5.1", "transformers>=4.48.2"]),
            Dist("vllm", "0.8.0", requires=["torch==2.6.0", "transformers>=4.48.2"]),
        ]
    return {
        "trl": [
            Dist("trl", v, requires=["transformers>=4.46.0", "accelerate>=0.34.0"])
            for v in ("0.12.0", "0.13.0", "0.14.0", "0.15.2")
        ]
        + ([Dist("trl", "0.16.0", requires=["transformers>=4.46.0"])] if not with_fix else []),
        "vllm": vllm,
        "transformers": [
            Dist("transformers", v) for v in ("4.47.1", "4.48.0", "4.48.2", "4.48.3", "4.49.0")
        ],
        "torch": [Dist("torch", v) for v in ("2.5.1", "2.6.0")],
        "accelerate": [Dist("accelerate", "1.3.0")],
    }


def grpo_env(site: Path) -> Path:
    make_env(site, {"trl": "0.14.0", "torch": "2.5.1", "transformers": "4.47.1"})
    make_dist(site, "vllm", "0.6.6.post1", requires=["torch==2.5.1", "transformers>=4.45.2"])
    make_dist(site, "accelerate", "1.3.0")
    return site


def pins_of(result: Any) -> dict[str, dict[str, Any]]:
    assert result.exit_code in (0, 1), result.stderr
    return {p["name"]: p for p in result.json()["pins"]}


def test_grpo_vllm_takes_the_device_fix_with_its_transformers_move(tmp_path: Path) -> None:
    site = grpo_env(tmp_path / "site")
    hardware = two_gpus(tmp_path)
    with IndexServer(grpo_index()) as index:
        args = ["pin", "--path", str(site), "--hardware", str(hardware), "--index-url", index.url,
                *GRPO_VLLM]  # fmt: skip
        text = run_cli(args)
        pins = pins_of(run_cli([*args, "--format", "json"]))
        assert text.exit_code == 0, text.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(text.stdout)
        resolved = pip_resolve(index.url, constraints, ["trl", "vllm", "transformers"], tmp_path)
    assert pins["vllm"]["version"] == "0.7.2" and pins["vllm"]["action"] == "upgrade"
    assert pins["transformers"]["version"] == "4.48.2"
    assert pins["transformers"]["companion"] == "vllm 0.7.2 requires transformers>=4.48.2"
    assert pins["trl"]["version"] == "0.14.0" and pins["trl"]["action"] == "kept"
    assert pins["torch"]["version"] == "2.5.1"  # 0.8.0 would have moved torch
    lines = {line.split("==")[0]: line for line in text.stdout.splitlines() if "==" in line}
    assert "# upgrade from 4.47.1 with vllm 0.7.2 requires transformers>=4.48.2" in " ".join(
        lines["transformers"].split()
    )
    assert resolved["vllm"] == "0.7.2" and resolved["trl"] == "0.14.0"
    after = make_env(tmp_path / "after", resolved)
    assert INPROCESS not in doctor_findings(after, *GRPO_VLLM, hardware=hardware)


def test_grpo_vllm_on_v100s_takes_the_attention_bias_fix(tmp_path: Path) -> None:
    # Pre-Ampere: vLLM's XFormers backend builds its attention bias on the default device up to
    # 0.7.3, so the escape is 0.8.0 (#13468), which pins torch 2.6.0: torch moves with it.
    site = grpo_env(tmp_path / "site")
    hardware = two_gpus(tmp_path, "Tesla V100-SXM2-32GB", "7.0")
    with IndexServer(grpo_index()) as index:
        pins = pins_of(run_cli(["pin", "--path", str(site), "--hardware", str(hardware),
                                "--index-url", index.url, *GRPO_VLLM, "--format", "json"]))  # fmt: skip
    assert pins["vllm"]["version"] == "0.8.0" and pins["trl"]["version"] == "0.14.0"
    assert pins["torch"]["version"] == "2.6.0"


def test_grpo_never_escapes_below_the_first_release_with_grpo(tmp_path: Path) -> None:
    # No fixed vLLM on the index: trl 0.13.0 would escape the rule, but it has no GRPOTrainer.
    site = grpo_env(tmp_path / "site")
    hardware = two_gpus(tmp_path)
    with IndexServer(grpo_index(with_fix=False)) as index:
        args = ["pin", "--path", str(site), "--hardware", str(hardware), "--index-url", index.url,
                *GRPO_VLLM, "--format", "json"]  # fmt: skip
        pins = pins_of(run_cli(args))
        # Without the stated trainer there is no floor: then 0.16.0 (upgrade) still beats 0.13.0.
        unstated = pins_of(run_cli([*args[:-4], "--set", "use_vllm=true", "--format", "json"]))
    assert pins["trl"]["version"] == "0.16.0" and pins["trl"]["action"] == "upgrade"
    assert pins["trl"]["floor"] == "trl>=0.14.0 (GRPOTrainer (with use_vllm))"
    assert unstated["trl"]["version"] == "0.16.0"


def test_floor_holds_even_when_nothing_else_escapes(tmp_path: Path) -> None:
    site = grpo_env(tmp_path / "site")
    hardware = two_gpus(tmp_path)
    projects = grpo_index(with_fix=False)
    projects["trl"] = [d for d in projects["trl"] if d.version != "0.16.0"]
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--hardware", str(hardware), "--index-url",
                          index.url, *GRPO_VLLM, "--format", "json"])  # fmt: skip
    assert result.exit_code == 1  # affected and not escapable: said, not papered over
    pins = pins_of(result)
    assert pins["trl"]["version"] == "0.14.0"
    unresolved = {u["rule"]: u for u in result.json()["unresolved"]}
    assert unresolved[INPROCESS]["status"] == "affected", unresolved


def test_user_pin_is_kept_and_the_unpinned_package_capped(tmp_path: Path) -> None:
    # OpenRLHF pinned transformers==4.40.1 and left peft unpinned: peft 0.14+ imports a class
    # transformers 4.40 lacks. Cap peft, keep the user's transformers.
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("transformers==4.40.1\npeft\n")
    projects = {
        "transformers": [Dist("transformers", v) for v in ("4.40.1", "4.43.0", "4.44.0")],
        "peft": [Dist("peft", v) for v in ("0.12.0", "0.13.2", "0.14.0", "0.15.0")],
    }
    with IndexServer(projects) as index:
        result = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url])
        unproven = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
                            "--no-verify"])  # fmt: skip
        assert result.exit_code == 0, result.stderr
        constraints = tmp_path / "constraints.txt"
        constraints.write_text(result.stdout)
        resolved = pip_resolve(index.url, constraints, ["transformers==4.40.1", "peft"], tmp_path)
    lines = {line.split("==")[0]: " ".join(line.split()) for line in result.stdout.splitlines()
             if "==" in line}  # fmt: skip
    assert lines["transformers"].startswith("transformers==4.40.1 # kept (your pin)")
    assert lines["peft"].startswith("peft==0.13.2 # downgrade from 0.15.0, the resolver's pick")
    assert "# installed" not in result.stdout and "# proof: uv " in result.stdout
    assert resolved == {"transformers": "4.40.1", "peft": "0.13.2"}
    # Without the proof nobody resolved peft: the line says what the search assumed.
    assert "# proof skipped (--no-verify" in unproven.stdout
    assert "peft==0.13.2 # downgrade from 0.15.0, the newest release your requirement allows" in (
        " ".join(unproven.stdout.split())
    )


def test_a_user_pin_moves_only_when_nothing_else_escapes_and_says_so(tmp_path: Path) -> None:
    # axolotl v0.9.2 style: trl==0.17.0 and transformers==4.51.3 pinned, GRPO with FSDP. Only trl
    # 0.18.0+ escapes the reference-model rule; trl 0.22 declares transformers>=4.55.0.
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("transformers==4.51.3\ntrl==0.17.0\n")
    projects = {
        "transformers": [Dist("transformers", v) for v in ("4.51.3", "4.55.0")],
        "trl": [Dist("trl", "0.13.0"), Dist("trl", "0.17.0", requires=["transformers>=4.46.0"]),
                Dist("trl", "0.18.0", requires=["transformers>=4.50.0"]),
                Dist("trl", "0.22.0", requires=["transformers>=4.55.0"])],
    }  # fmt: skip
    usage = ["--set", "trainer=grpo", "--set", "distributed=fsdp"]
    with IndexServer(projects) as index:
        online = run_cli(["pin", "-r", str(requirements), "--no-probe", "--index-url", index.url,
                          *usage])  # fmt: skip
        offline = run_cli(["pin", "-r", str(requirements), "--no-probe", "--offline", *usage])
        for result in (online, offline):
            assert result.exit_code == 0, result.stderr
            lines = {line.split("==")[0]: " ".join(line.split())
                     for line in result.stdout.splitlines() if "==" in line}  # fmt: skip
            assert lines["trl"].startswith("trl==0.18.0 # upgrade from your pin 0.17.0 via ")
            assert "moves your pin trl==0.17.0: no escape without it" in lines["trl"]
            assert lines["transformers"].startswith("transformers==4.51.3 # kept (your pin)")
            constraints = tmp_path / "constraints.txt"
            constraints.write_text(result.stdout)
            # The user edits the moved pin (the line says so); pip accepts the rest as it is.
            resolved = pip_resolve(
                index.url, constraints, ["transformers==4.51.3", "trl"], tmp_path
            )
            assert resolved == {"transformers": "4.51.3", "trl": "0.18.0"}


def test_capabilities_are_linted_with_their_examples(tmp_path: Path) -> None:
    good = run_cli(["matrix", "lint"])
    assert good.exit_code == 0, good.stdout + good.stderr
    bad = tmp_path / "caps.yaml"
    bad.write_text(
        "schema: compat.capabilities/1\ncapabilities:\n"
        "  - id: x-grpo\n    feature: GRPO\n    package: trl\n    since: '0.14.0'\n"
        "    evidence: verified\n    when: {usage: {trainer: grpo}}\n"
        "    references: ['https://example.org/x']\n"
        "    examples:\n      needs: [{usage: {trainer: sft}}]\n"
        "      not_needed: [{usage: {trainer: dpo}}]\n"
    )
    result = run_cli(["matrix", "lint", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}:11: capability x-grpo: example expected needs, got not_needed" in result.stderr
    bad.write_text(bad.read_text().replace("since: '0.14.0'", "since: 'soon'"))
    result = run_cli(["matrix", "lint", str(bad)])
    assert result.exit_code == 2 and f"{bad}:6: since 'soon' is not a version" in result.stderr


XR1 = paths.DATA / "requirements" / "xr1-requirements.txt"  # PROVENANCE.md


def h100s(tmp: Path) -> Path:
    gpus = [{"index": i, "name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"}
            for i in range(8)]  # fmt: skip
    path = tmp / "h100x8.json"
    path.write_text(json.dumps({"schema": "compat.hardware/1", "driver_version": "550.54.15",
                                "cuda_driver_version": "12.4", "gpus": gpus}))  # fmt: skip
    return path


def test_x_r1_offline_keeps_its_torch_stack(tmp_path: Path) -> None:
    # X-R1's own requirements (torch==2.5.1, vllm==0.7.2, trl from git) offline: nothing moves.
    result = run_cli(["pin", "-r", str(XR1), "--offline", "--hardware", str(h100s(tmp_path)),
                      *GRPO_VLLM, "--set", "zero_stage=3"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = {line.split("==")[0]: " ".join(line.split()) for line in result.stdout.splitlines()
             if "==" in line and not line.startswith("#")}  # fmt: skip
    assert lines["torch"].startswith("torch==2.5.1 # kept (your pin)")
    assert lines["vllm"].startswith("vllm==0.7.2 # kept (your pin)")
    # Proven by the offline solve, as far as the snapshot reads: DeepSpeed publishes sdists only.
    proof = next(line for line in result.stdout.splitlines() if line.startswith("# proof"))
    assert proof.startswith("# proof: not proven offline: ") and "deepspeed" in proof
    assert "limit reached" not in result.stdout


def test_x_r1_environment_offline_takes_the_rules_fix_not_a_torch_move(tmp_path: Path) -> None:
    # trl 0.15.2 + vLLM 0.7.1 on 8 H100s, offline: the rule's own fix, vLLM 0.7.2 (trl 0.15.2's
    # pin, X-R1's working set-up on Ampere and newer), with trl kept; never a torch move (and
    # vLLM 0.8 with it) that drags DeepSpeed along.
    site = make_env(tmp_path / "site", {"trl": "0.15.2", "transformers": "4.48.2",
                                        "deepspeed": "0.15.4", "accelerate": "1.3.0"})  # fmt: skip
    make_dist(
        site,
        "torch",
        "2.5.1",
        requires=['nvidia-cuda-runtime-cu12==12.4.127; platform_system == "Linux"'],
    )
    make_dist(site, "vllm", "0.7.1", requires=["torch==2.5.1", "transformers>=4.45.2"])
    result = run_cli(["pin", "--path", str(site), "--offline", "--hardware", str(h100s(tmp_path)),
                      *GRPO_VLLM, "--set", "zero_stage=3", "--format", "json"])  # fmt: skip
    pins = pins_of(result)
    assert pins["vllm"]["version"] == "0.7.2" and INPROCESS_071 in pins["vllm"]["via"]
    assert pins["trl"]["version"] == "0.15.2"
    assert pins["torch"]["version"] == "2.5.1" and pins["deepspeed"]["version"] == "0.15.4"
    assert not {INPROCESS, INPROCESS_071} & {u["rule"] for u in result.json()["unresolved"]}
    # What the solver could not escape, it says: each unresolved rule with its reason, and any limit.
    for item in result.json()["unresolved"]:
        assert item["why"] and item["why"] != "search limit reached"
    assert all(note.startswith("solver: ") for note in result.json()["notes"])


def test_a_companion_brings_its_own_companion(tmp_path: Path) -> None:
    # vLLM 0.7.2 needs transformers>=4.48.2, which needs toktools>=0.21 (a package no rule
    # speaks of, so only the second level of the joint move can bring it): all three move.
    site = grpo_env(tmp_path / "site")
    make_dist(site, "toktools", "0.20.3")
    projects = grpo_index()
    projects["transformers"] = [
        Dist("transformers", "4.47.1", requires=["toktools>=0.20,<0.21"]),
        Dist("transformers", "4.48.2", requires=["toktools>=0.21,<0.22"]),
    ]
    projects["toktools"] = [Dist("toktools", v) for v in ("0.20.3", "0.21.0", "0.21.1")]
    hardware = two_gpus(tmp_path)
    with IndexServer(projects) as index:
        result = run_cli(["pin", "--path", str(site), "--hardware", str(hardware), "--index-url",
                          index.url, *GRPO_VLLM, "--format", "json"])  # fmt: skip
    pins = pins_of(result)
    assert result.exit_code == 0, result.stderr
    assert pins["vllm"]["version"] == "0.7.2" and pins["transformers"]["version"] == "4.48.2"
    assert pins["toktools"]["version"] == "0.21.0"
    assert pins["toktools"]["companion"] == "transformers 4.48.2 requires toktools<0.22,>=0.21"
    assert result.json()["proof"]["status"] == "proven"
