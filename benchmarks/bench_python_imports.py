"""What reading every installed module's imports costs doctor (issue 41, item 4).

Builds (once, under benchmarks/.work/) a virtual environment from PyPI with real pip, or takes
`--site DIR` (any site-packages):

  --env big (default)  ~300 distributions: an HF fine-tune stack (torch from the local wheel in
                       /opt/wheels, transformers, accelerate, peft, trl, datasets, diffusers,
                       sentence-transformers, bitsandbytes), the tools around training (jupyterlab,
                       wandb, tensorboard, lightning, ray, mlflow-skinny, gradio, scikit-learn,
                       ...), then vllm and deepspeed with --no-deps (vllm pins its own torch
                       build, which download.pytorch.org would have to serve; deepspeed is an
                       sdist that builds against the installed torch): their own files are real,
                       a few of their dependencies (xformers, flashinfer, ...) are absent
  --env hf             the HF stack alone (~190 distributions), as the first round measured
  --env core           torch, transformers and their dependencies, vllm and deepspeed with
                       --no-deps: the issue's "environment with transformers, vllm, deepspeed
                       and torch" and nothing else (~30 distributions)
  --env vllm           the same four, vllm 0.33.0 and deepspeed 0.19.8 --no-deps, with their own
                       requirements installed (VLLM_DEPS: all but the GPU builds and another
                       torch): the issue's environment as an install makes it (~150)

Then, paired round by round (alternating, so a busy moment on the shared machine weighs on
all alike), with bytecode caches as a user's install has them (PYTHONDONTWRITEBYTECODE dropped:
with it set, every run compiles every module doctor imports):

  floor    python -c "import importlib.metadata as m;
                      [(d.version, d.requires) for d in m.distributions(path=['SITE'])]"
  doctor   compat doctor --path SITE --no-probe --format json      (warm caches)
  nocheck  the same doctor with the import check replaced by an empty answer (a benchmark's
           switch, not a product option): what the check itself costs warm
  before   --before TREE: another tree's doctor (git archive REV | tar -x -C TREE), same caches
           directory of its own

and prints each median wall time, the median of the paired ratios to the floor (target for
doctor: <= 1.5) and the median CPU time (user+system of the child: steadier on a shared machine).
Cold: `compat doctor` with no cache at all (the first run on the environment: the import
check and the native-file check both read everything), --cold-runs times per tree, alternating,
median wall and CPU of every process (the import check's scan workers included); and
in-process the import check alone (compat.commands.pythoncheck.read_python) cold and warm,
its own CPU and its workers' (target: cold within 3 s). On a shared machine the wall times of
the cold runs say how busy it was; the load average at the start and the end is printed.

Run: .venv/bin/python benchmarks/bench_python_imports.py [--runs 21] [--cold-runs 3]
     [--env big|hf|core] [--site DIR] [--before TREE]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import ROOT, WORK

STACK = (
    "torch==2.13.0",  # the local wheel (/opt/wheels); download.pytorch.org is not reachable
    "transformers",
    "accelerate",
    "peft",
    "trl",
    "datasets",
    "huggingface_hub",
    "sentence-transformers",
    "diffusers",
    "bitsandbytes",
)
TOOLS = (
    "spacy",
    "langchain",
    "streamlit",
    "boto3",
    "google-cloud-storage",
    "hydra-core",
    "onnx",
    "onnxruntime",
    "librosa",
    "sphinx",
    "pytest",
    "black",
    "plotly",
    "polars",
    "statsmodels",
    "nltk",
    "scikit-learn",
    "pandas",
    "matplotlib",
    "seaborn",
    "jupyterlab",
    "wandb",
    "tensorboard",
    "lightning",
    "optuna",
    "evaluate",
    "sentencepiece",
    "fastapi",
    "uvicorn",
    "openai",
    "ray",
    "mlflow-skinny",
    "gradio",
)
# vllm 0.33.0's and deepspeed 0.19.8's own requirements (their METADATA's Requires-Dist without
# extras), less what needs a GPU build or another torch: torch, torchaudio, torchvision,
# torchcodec, PyNvVideoCodec, flashinfer-python, apache-tvm-ffi, tilelang, nvidia-cudnn-frontend,
# nvtx, fastsafetensors, instanttensor, nvidia-cutlass-dsl, quack-kernels, tokenspeed-mla,
# humming-kernels (and transformers, asked for in vllm's range below)
VLLM_DEPS = (
    "regex",
    "cachetools",
    "psutil",
    "sentencepiece",
    "numpy",
    "requests>=2.33.0",
    "certifi>=2026.10.19",
    "tqdm",
    "blake3",
    "py-cpuinfo",
    "huggingface_hub>=1.31.0",
    "tokenizers>=0.23.2",
    "safetensors>=0.6.2",
    'protobuf!=6.30.*,!=6.31.*,!=6.32.*,!=6.33.0.*,!=6.33.1.*,!=6.33.2.*,!=6.33.3.*,!=6.33.4.*,>=5.29.6; platform_machine != "s390x"',
    'protobuf==7.36.1; platform_machine == "s390x"',
    "fastapi[standard]<0.137.0,>=0.133.0",
    "starlette>=1.0.1",
    "aiohttp>=3.14.4",
    "multidict>=6.9.1",
    "openai>=2.25.0",
    "pydantic>=2.12.0",
    "orjson>=3.11.6",
    "prometheus_client>=0.18.0",
    "pillow>=13.0.0",
    "prometheus-fastapi-instrumentator>=8.0.0",
    "tiktoken>=0.6.0",
    "lm-format-enforcer==0.11.3",
    'llguidance<1.8.0,>=1.7.0; platform_machine == "x86_64" or platform_machine == "arm64" or platform_machine == "aarch64" or platform_machine == "ppc64le" or platform_machine == "s390x"',
    "outlines_core==0.2.14",
    "lark==1.2.2",
    'xgrammar==0.2.8; platform_machine == "x86_64" or platform_machine == "aarch64" or platform_machine == "arm64" or platform_machine == "s390x" or platform_machine == "ppc64le"',
    "typing_extensions>=4.10",
    "filelock>=3.20.3",
    "partial-json-parser",
    "jsonschema>=4.23.0",
    "pyzmq>=25.0.0",
    "msgspec",
    "mistral_common[image]>=1.11.6",
    "opencv-python-headless>=4.13.0",
    "pyyaml",
    'six>=1.16.0; python_version > "3.11"',
    'setuptools<81.0.0,>=78.1.1; python_version > "3.11"',
    "einops",
    "compressed-tensors==0.17.0",
    "depyf==0.20.0",
    "cloudpickle",
    "watchfiles",
    "python-json-logger",
    "ninja",
    "pybase64",
    "cbor2",
    "ijson",
    "setproctitle",
    "oss-harmony>=0.0.11",
    "anthropic>=0.71.0",
    "model-hosting-container-standards<1.0.0,>=0.1.14",
    "mcp<3.0.0,>=2.2.0",
    "opentelemetry-sdk>=1.27.0",
    "opentelemetry-api>=1.27.0",
    "opentelemetry-exporter-otlp>=1.27.0",
    "opentelemetry-semantic-conventions-ai>=0.4.1",
    "numba==0.65.0",
    "hjson",
    "msgpack",
    "packaging>=20.0",
    "pydantic>=2.0.0",
)
NO_DEPS = ("vllm", "deepspeed")  # see the module docstring
ENVS = {
    "hf": (STACK, ()),
    "big": (STACK + TOOLS, NO_DEPS),
    # the words: an environment with transformers, vllm, deepspeed and torch
    "core": (("torch==2.13.0", "transformers"), NO_DEPS),
    # the same four with what vllm and deepspeed require installed too (all but the GPU builds)
    "vllm": (
        ("torch==2.13.0", "transformers>=5.16.1,<5.21.0", *VLLM_DEPS),
        ("vllm==0.33.0", "deepspeed==0.19.8"),
    ),
}
_VENVS = {"hf": "pyimports", "big": "py300", "core": "pycore", "vllm": "pyvllm"}
_IN_PROCESS = """
import json, resource, sys, time
from pathlib import Path
from compat.facts.installed import read_paths
from compat.commands.pythoncheck import read_python
def workers():  # the scan's worker processes, waited for
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
env = read_paths([Path(sys.argv[1])])
start, cpu, children = time.perf_counter(), time.process_time(), workers()
judgement = read_python(env)
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
print(json.dumps({"seconds": elapsed, "cpu": cpu, "workers": workers() - children,
                  "packages": len(env.packages), **judgement.document,
                  "findings": [f.rule.id for f in judgement.findings]}))
"""
# doctor with the import check answering nothing: the cost of everything else, warm
_NO_CHECK = """
import sys
import compat.commands.doctor as doctor
from compat.commands.pythoncheck import PythonJudgement
doctor.read_python = lambda env: PythonJudgement()
from compat.cli import main
sys.argv[0] = "compat"
main()
"""


def build_site(name: str) -> Path:
    stack, no_deps = ENVS[name]
    venv = WORK / _VENVS[name] / "venv"
    if not (venv / ".complete").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, *stack], check=True)
        if no_deps:
            subprocess.run([*pip, "--no-deps", *no_deps], check=True)
        (venv / ".complete").write_text("ok")
    return next((venv / "lib").glob("python3*/site-packages"))


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of the command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # from /: `python -m compat` and `-c` put the working directory first on sys.path, ahead
    # of PYTHONPATH (--before's tree); the editable install finds this tree after both
    proc = subprocess.run(command, capture_output=True, env=env, check=False, cwd="/")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{command[:3]} failed ({proc.returncode}): {proc.stderr.decode()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def in_process(site: Path, env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _IN_PROCESS, str(site)],
        cwd="/",
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--cold-runs", type=int, default=3, help="first runs per tree")
    parser.add_argument("--env", choices=sorted(ENVS), default="big")
    parser.add_argument("--site", type=Path, help="a site-packages to read instead")
    parser.add_argument("--before", type=Path, help="an older tree to time beside this one")
    args = parser.parse_args()
    site = args.site or build_site(args.env)
    caches = WORK / "pyimports-cache"
    shutil.rmtree(caches, ignore_errors=True)
    base = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
    }
    base["NO_COLOR"] = "1"
    # this tree first on sys.path (run from /, an editable install could name another)
    env = {**base, "COMPAT_CACHE_DIR": str(caches / "doctor"), "PYTHONPATH": str(ROOT)}
    doctor = ["doctor", "--path", str(site), "--no-probe", "--format", "json"]
    python = sys.executable
    commands = {
        "floor": (
            [
                python,
                "-c",
                "import importlib.metadata as m; "
                f"[(d.version, d.requires) for d in m.distributions(path=[{str(site)!r}])]",
            ],
            base,
        ),
        "doctor": ([python, "-m", "compat", *doctor], env),
        "nocheck": (
            [python, "-c", _NO_CHECK, *doctor],
            {**base, "COMPAT_CACHE_DIR": str(caches / "nocheck"), "PYTHONPATH": str(ROOT)},
        ),
    }
    if args.before:
        commands["before"] = (
            [python, "-m", "compat", *doctor],
            {
                **base,
                "PYTHONPATH": str(args.before.resolve()),
                "COMPAT_CACHE_DIR": str(caches / "before"),
            },
        )
    load = os.getloadavg()  # the machine may be shared: printed beside the times
    time.sleep(2.1)  # files older than the caches' racy window, as a user's install is
    trees = {"doctor": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    tree_envs = {label: {**base, "PYTHONPATH": str(tree)} for label, tree in trees.items()}
    for tree_env in tree_envs.values():
        # bytecode written first (a user's install has it): then the first real runs
        timed([python, "-c", "import compat.cli.doctor"], tree_env)
    # first runs, each with no cache at all, the trees alternating round by round
    firsts: dict[str, list[tuple[float, float]]] = {label: [] for label in trees}
    for round_ in range(args.cold_runs):
        for label in list(trees) if round_ % 2 == 0 else list(reversed(trees)):
            fresh = caches / f"first-{label}"
            shutil.rmtree(fresh, ignore_errors=True)
            command, command_env = commands[label]
            first_env = {**tree_envs[label], **command_env, "COMPAT_CACHE_DIR": str(fresh)}
            firsts[label].append(timed(command, first_env))
    cold: dict[str, tuple[float, float, dict[str, object], dict[str, object]]] = {}
    for label in trees:
        alone = {**tree_envs[label], "COMPAT_CACHE_DIR": str(caches / f"alone-{label}")}
        wall = statistics.median(w for w, _ in firsts[label])
        cpu = statistics.median(c for _, c in firsts[label])
        cold[label] = (wall, cpu, in_process(site, alone), in_process(site, alone))
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for round_ in range(args.runs + 1):  # round 0 warms the other caches and the page cache
        order = list(commands) if round_ % 2 else list(reversed(commands))
        for name in order:
            wall, cpu = timed(*commands[name])
            if round_:
                walls[name].append(wall)
                cpus[name].append(cpu)
    c = cold["doctor"][2]
    print(f"load average at the start {load[0]:.2f}, at the end {os.getloadavg()[0]:.2f}")
    print(
        f"{c['packages']} distributions, {c['files']} Python files, "
        f"{c['imports_checked']} cross-distribution imports checked, "
        f"findings: {c['findings']} ({site})"
    )
    for label, (wall, cpu, c, w) in cold.items():
        print(
            f"{label:8} first run (no caches, median of {args.cold_runs}): {wall:.2f} s wall, "
            f"{cpu:.2f} s CPU (min {min(c for _, c in firsts[label]):.2f}; target 3 s); "
            f"import check alone, in-process: cold {float(c['seconds']):.2f} s "  # type: ignore[arg-type]
            f"({float(c['cpu']):.2f} s CPU + {float(c.get('workers', 0)):.2f} s in scan workers; "  # type: ignore[arg-type]
            f"read {c['read']}, parsed {c['parsed']}), "
            f"warm {float(w['seconds']) * 1000:.0f} ms ({float(w['cpu']) * 1000:.0f} ms CPU)"  # type: ignore[arg-type]
        )
    for name in commands:
        wall = statistics.median(walls[name])
        cpu = statistics.median(cpus[name])
        line = f"{name:8} wall {wall * 1000:7.1f} ms  CPU {cpu * 1000:7.1f} ms"
        if name != "floor":
            paired = statistics.median(
                a / b for a, b in zip(walls[name], walls["floor"], strict=True)
            )
            line += (
                f"  / floor: {paired:.2f} paired wall, "
                f"{cpu / statistics.median(cpus['floor']):.2f} CPU"
            )
        print(line)
    print(f"({args.runs} paired rounds; target doctor / floor <= 1.5; tree {ROOT})")


if __name__ == "__main__":
    main()
