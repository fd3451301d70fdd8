"""Hostile input, one named case per class of issue 16, through `python -m compat` as a real
process within 10 s (tests/fuzzing.py): patterns in any file that could backtrack, exit 70 where
the contract says 2, terminal escapes from flags, undecodable names under `-o`, and error lines
that echo a huge input. Each case asserts the contract (exit code, one line naming the file, no
traceback), never a dependency's wording."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.dists import make_dist
from tests.fuzzing import WALL_BACKSTOP_S, assert_input_error, rule_file, run_hostile
from tests.lib import paths

BACKTRACKING = "(a+)+$"
ESC_SET = "trainer=\x1b[31mred"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    make_dist(site, "trl", "0.17.0")
    make_dist(site, "deepspeed", "0.14.2")
    return site


@pytest.fixture
def hardware(tmp_path: Path) -> Path:
    """A GPU whose name makes `(a+)+$` backtrack for hours: forty a's and no match at the end."""
    profile = tmp_path / "hw.json"
    profile.write_text(json.dumps({"gpus": [{"name": "a" * 40 + "!"}]}), encoding="utf-8")
    return profile


# ---------------------------------------------------------------------------------------------
# a hang: every regex a file can carry goes through the linear-time check


def test_gpu_name_pattern_that_backtracks_in_doctor(
    tmp_path: Path, site: Path, hardware: Path
) -> None:
    rules = rule_file(
        tmp_path / "rules.yaml", extra_when=f", hardware: {{gpu_name: '{BACKTRACKING}'}}"
    )
    outcome = run_hostile(
        ["doctor", "--path", str(site), "--hardware", str(hardware), "--matrix", str(rules)]
    )
    assert_input_error(outcome, "rules.yaml:7")


def test_gpu_name_pattern_that_backtracks_in_every_command_that_reads_rules(
    tmp_path: Path, site: Path, hardware: Path
) -> None:
    """The same rule file given to every command that reads rules: refused by each, promptly."""
    rules = rule_file(
        tmp_path / "rules.yaml",
        extra_when=f", any: [{{hardware: {{gpu_name: 'x'}}}}, {{hardware: {{gpu_name: '{BACKTRACKING}'}}}}]",
    )
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    log = tmp_path / "train.log"
    log.write_text("a" * 40 + "!\n", encoding="utf-8")
    for args in (
        ["check", str(requirements), "--offline", "--hardware", str(hardware)],
        ["explain", str(log), "--path", str(site), "--no-probe"],
        ["pin", "--path", str(site), "--no-probe", "--offline"],
        ["matrix", "show", "hostile-rule"],
    ):
        outcome = run_hostile([*args, "--matrix", str(rules)])
        assert_input_error(outcome, "rules.yaml:7", BACKTRACKING)


def test_matrix_lint_refuses_a_backtracking_gpu_name(tmp_path: Path) -> None:
    rules = rule_file(
        tmp_path / "rules.yaml", extra_when=f", hardware: {{gpu_name: '{BACKTRACKING}'}}"
    )
    outcome = run_hostile(["matrix", "lint", str(rules)])
    assert outcome.returncode == 2
    lines = outcome.stderr.splitlines()
    assert any(line.startswith(f"{rules}:7: ") and BACKTRACKING in line for line in lines)
    assert "Traceback" not in outcome.stderr


@pytest.mark.parametrize("pattern", ["x*", "^", "(?=Error)", "a?|b"])
def test_symptom_that_matches_the_empty_string(tmp_path: Path, site: Path, pattern: str) -> None:
    rules = rule_file(tmp_path / "rules.yaml", extra=f"symptoms: [{{match: '{pattern}'}}]")
    log = tmp_path / "train.log"
    log.write_text("hello\n\nworld\n", encoding="utf-8")
    explain = run_hostile(
        ["explain", str(log), "--path", str(site), "--no-probe", "--matrix", str(rules)]
    )
    assert_input_error(explain, "rules.yaml:8")
    lint = run_hostile(["matrix", "lint", str(rules)])
    assert lint.returncode == 2 and f"{rules}:8: " in lint.stderr, lint.stderr


# ---------------------------------------------------------------------------------------------
# a raw ESC from a flag never reaches the terminal


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "html"])
def test_escape_in_a_set_value_doctor(site: Path, fmt: str) -> None:
    outcome = run_hostile(
        ["doctor", "--path", str(site), "--no-probe", "--set", ESC_SET, "-f", fmt]
    )
    assert outcome.returncode in (0, 1), outcome.stderr
    assert "\x1b" not in outcome.stdout + outcome.stderr
    if fmt == "json":  # JSON keeps the value as it was given, escaped the JSON way
        assert json.loads(outcome.stdout)["usage"]["trainer"] == "\x1b[31mred"
    elif fmt == "text":
        assert "trainer=\\u001b[31mred" in outcome.stdout
    elif fmt == "html":  # shown as text in the usage facts
        assert "\\u001b[31mred" in outcome.stdout


@pytest.mark.parametrize(
    "fmt", ["text", "markdown", "github", "json", "sarif", "html", "junit", "gitlab"]
)
def test_escape_in_a_set_value_check(tmp_path: Path, fmt: str) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\ndeepspeed==0.14.2\n", encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline", "--set", ESC_SET, "-f", fmt])
    assert outcome.returncode in (0, 1), outcome.stderr
    assert "\x1b" not in outcome.stdout + outcome.stderr


def test_escape_in_a_set_value_explain(tmp_path: Path, site: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 1\n", encoding="utf-8")
    for fmt in ("text", "json", "html"):
        args = ["explain", str(log), "--path", str(site), "--no-probe", "--set", ESC_SET]
        outcome = run_hostile([*args, "-f", fmt])
        assert outcome.returncode in (0, 1), outcome.stderr
        assert "\x1b" not in outcome.stdout + outcome.stderr


def test_escape_in_a_set_value_on_a_colour_terminal(site: Path) -> None:
    """On a real terminal compat colours its own text; the ESC a value carries stays escaped."""
    primary, secondary = pty.openpty()
    usage = ["--set", ESC_SET, "--set", "zero_stage=3"]
    env = {**os.environ, "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    env.pop("CI", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "compat", "doctor", "--path", str(site), "--no-probe", *usage],
        stdout=secondary,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    proc.wait(timeout=WALL_BACKSTOP_S)
    os.close(primary)
    assert proc.stderr is not None
    with proc.stderr:
        assert b"\x1b" not in proc.stderr.read()
    out = b"".join(chunks).decode()
    assert proc.returncode in (0, 1)
    assert "\x1b[" in out  # compat's own colours: this is a terminal
    assert "\x1b[31mred" not in out and "\\u001b[31mred" in out


# ---------------------------------------------------------------------------------------------
# error lines are one short line, whatever they echo


def test_marker_of_2000_parentheses_is_a_short_line(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    marker = "(" * 2000 + 'os_name == "posix"' + ")" * 2000
    requirements.write_text(f"trl==0.1; {marker}\n", encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline"])
    assert_input_error(outcome, "requirements.txt:1")
    assert len(outcome.stderr.rstrip("\n")) <= 500  # one short line


@pytest.mark.parametrize(
    "args",
    [
        ["--set", "trainer=" + "x" * 5000],
        ["--set", "x" * 5000 + "=1"],
        ["--matrix", "/nonexistent/" + "d" * 3000],
    ],
    ids=["set-value", "set-key", "missing-file"],
)
def test_long_flag_values_give_a_short_line(site: Path, args: list[str]) -> None:
    outcome = run_hostile(["doctor", "--path", str(site), "--no-probe", *args])
    if outcome.returncode == 2:
        assert_input_error(outcome)
        assert len(outcome.stderr.rstrip("\n")) <= 500  # one short line
    else:  # a value doctor accepts is not an error
        assert outcome.returncode in (0, 1), outcome.stderr


# ---------------------------------------------------------------------------------------------
# exit 70 where the contract says 2: every version parse of input is bounded

BIG = "1" * 5000


def test_5000_digit_version_in_a_dist_info(tmp_path: Path, site: Path) -> None:
    """A huge version in a dist-info is a hostile file, not a broken install (no build tool writes
    one): exit 2, one line naming the METADATA file and its Version line, for every command that
    reads the environment. (A version that is merely not PEP 440 stays a reported problem.)"""
    make_dist(site, "peft", BIG, dir_name="peft-1.0.dist-info")
    metadata = site / "peft-1.0.dist-info" / "METADATA"
    for args in (
        ["doctor", "--path", str(site), "--no-probe", "-f", "json"],
        ["pin", "--path", str(site), "--no-probe", "--offline", "-f", "json"],
    ):
        outcome = run_hostile(args)
        assert_input_error(outcome, f"{metadata}:")
        assert len(outcome.stderr) < 500


def test_5000_digit_version_in_requires_dist(site: Path) -> None:
    """A Requires-Dist compat could parse but never compare: the distribution's requirements
    are skipped and reported (as pip check skips them), one problem per distribution."""
    make_dist(site, "accelerate", "1.0.0", requires=[f"trl=={BIG}"])
    make_dist(site, "peft", "1.0.0", requires=["torch>=2; python_version > '3." + "1" * 200 + "'"])
    outcome = run_hostile(["doctor", "--path", str(site), "--no-probe", "-f", "json"])
    assert outcome.returncode in (0, 1), outcome.stderr
    problems = json.loads(outcome.stdout)["environment"]["problems"]
    assert sorted(p["kind"] for p in problems) == ["invalid-requirement"] * 2
    assert all(len(p["message"]) < 500 for p in problems)


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("requirements.txt", f"trl=={BIG}\n", "requirements.txt:1"),
        ("requirements.txt", f"trl>=0.1,!={BIG}.*\n", "requirements.txt:1"),
        ("requirements.txt", f"trl==0.17.0; python_version < '{BIG}'\n", "requirements.txt:1"),
        ("requirements.txt", f"trl @ https://example.org/trl-{BIG}-py3-none-any.whl\n", "requirements.txt:1"),
        ("pyproject.toml", f'[project]\nname = "x"\nversion = "1"\nrequires-python = ">={BIG}"\ndependencies = ["trl==0.17.0"]\n', "pyproject.toml"),
        ("pylock.toml", f'lock-version = "1.0"\ncreated-by = "x"\n[[packages]]\nname = "trl"\nversion = "{BIG}"\n', "pylock.toml"),
    ],
    ids=["pinned", "excluded", "marker", "wheel-url", "requires-python", "pylock"],
)  # fmt: skip
def test_5000_digit_version_in_a_requirement(
    tmp_path: Path, name: str, content: str, fragment: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    for args in (["check", str(path), "--offline"], ["pin", "-r", str(path), "--offline"]):
        if name != "requirements.txt" and args[0] == "pin":
            continue
        outcome = run_hostile(args)
        if outcome.returncode == 2:
            assert_input_error(outcome, fragment)
            assert len(outcome.stderr.rstrip("\n")) <= 500  # one short line
        else:  # a version compat cannot read in a URL it does not need: not an error
            assert outcome.returncode in (0, 1), outcome.stderr


@pytest.mark.parametrize(
    "where",
    ["specifier", "example", "since", "marker", "constraint"],
)
def test_5000_digit_version_in_a_rule_file(tmp_path: Path, site: Path, where: str) -> None:
    if where == "specifier":
        rules = rule_file(tmp_path / "rules.yaml", extra_when=f", python: '<{BIG}'")
    elif where == "example":
        rules = rule_file(tmp_path / "rules.yaml", affected=BIG)
    elif where == "marker":
        rules = rule_file(
            tmp_path / "rules.yaml", extra_when=f", platform: 'python_version < \"{BIG}\"'"
        )
    elif where == "constraint":
        rules = tmp_path / "rules.yaml"
        rule_file(rules)
        rules.write_text(rules.read_text().replace('"trl>=9"', f'"trl>=9,!={BIG}"'))
    else:
        rules = tmp_path / "caps.yaml"
        rules.write_text(
            "schema: compat.capabilities/1\ncapabilities:\n  - id: x-grpo\n    feature: GRPO\n"
            f"    package: trl\n    since: '{BIG}'\n    evidence: verified\n"
            "    description: d\n    when: {usage: {trainer: grpo}}\n"
            "    references: ['https://example.org/x']\n"
            "    examples: {needs: [{usage: {trainer: grpo}}], not_needed: [{}]}\n",
            encoding="utf-8",
        )
    command = ["pin", "--offline"] if where == "since" else ["doctor"]  # pin reads capabilities
    doctor = run_hostile([*command, "--path", str(site), "--no-probe", "--matrix", str(rules)])
    lint = run_hostile(["matrix", "lint", str(rules)])
    assert lint.returncode == 2 and "Traceback" not in lint.stderr, lint.stderr
    assert any(line.startswith(f"{rules}:") for line in lint.stderr.splitlines()), lint.stderr
    if where == "example":  # examples run only in lint: doctor has nothing to refuse
        assert doctor.returncode in (0, 1), doctor.stderr
    else:
        assert_input_error(doctor, rules.name)


def test_lint_on_an_example_with_an_invalid_version(tmp_path: Path) -> None:
    rules = rule_file(tmp_path / "rules.yaml", affected="not-a-version")
    outcome = run_hostile(["matrix", "lint", str(rules)])
    assert outcome.returncode == 2
    assert "Traceback" not in outcome.stderr and "internal error" not in outcome.stderr
    assert any(
        line.startswith(f"{rules}:12: ") and "not-a-version" in line
        for line in outcome.stderr.splitlines()
    ), outcome.stderr


@pytest.mark.parametrize(
    "value",
    [
        "{'packages': {'trl': '1.0'}, 'build': {'torch_cuda': 'twelve'}}",
        "{'packages': {'trl': '1.0'}, 'python': 'three'}",
        "{'packages': {'trl': '1.0'}, 'hardware': {'gpu': 'H100', 'driver': 'new'}}",
        "{'packages': {'trl': '1.0'}, 'hardware': {'gpu': 'H100', 'gpu_count': 'many'}}",
    ],
    ids=["build", "python", "driver", "gpu-count"],
)
def test_lint_on_an_example_with_a_wrong_value(tmp_path: Path, value: str) -> None:
    rules = tmp_path / "rules.yaml"
    rule_file(rules)
    rules.write_text(
        rules.read_text().replace('affected: [{packages: {trl: "0.1"}}]', f"affected: [{value}]")
    )
    outcome = run_hostile(["matrix", "lint", str(rules)])
    assert outcome.returncode == 2, outcome.stderr
    assert "Traceback" not in outcome.stderr and "internal error" not in outcome.stderr
    assert any(line.startswith(f"{rules}:") for line in outcome.stderr.splitlines())


# ---------------------------------------------------------------------------------------------
# --python pointing at something that answers, but not what compat asked

FAKE_PYTHON = """#!/bin/sh
cat > /dev/null
echo '{answer}'
"""


@pytest.mark.parametrize(
    "answer",
    [
        '{"executable": "/x", "paths": []}',
        '{"executable": "/x", "paths": [], "markers": []}',
        '{"executable": "/x", "paths": "/", "markers": {"python_full_version": "3.11.7"}}',
        '{"executable": "/x", "paths": [1], "markers": {"python_full_version": "3.11.7"}}',
        '{"executable": "/x", "paths": [], "markers": {}}',
        '{"executable": "/x", "paths": [], "markers": {"python_full_version": 3}}',
        '{"executable": "/x", "paths": [], "markers": {"python_full_version": "three"}}',
        f'{{"executable": "/x", "paths": [], "markers": {{"python_full_version": "{BIG}"}}}}',
        f'{{"executable": "/x", "paths": [], "markers": {{"python_full_version": "3.11.7", "platform_release": "{BIG}"}}}}',
        f'{{"executable": "/x", "paths": [], "n": {BIG}}}',
        "[" * 100_000,
        "[]",
        '{"executable": 5, "paths": [], "markers": {"python_full_version": "3.11.7"}}',
    ],
    ids=["no-markers", "markers-list", "paths-string", "paths-ints", "no-python-version",
         "version-int", "version-word", "version-5000-digits", "marker-5000-digits",
         "json-int-5000-digits", "json-depth", "json-list", "executable-int"],
)  # fmt: skip
def test_python_whose_answer_lacks_a_field(tmp_path: Path, answer: str) -> None:
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON.format(answer=answer), encoding="utf-8")
    python.chmod(0o755)
    for command in ("doctor", "pin"):
        args = [command, "--python", str(python), "--no-probe"]
        outcome = run_hostile([*args, "--offline"] if command == "pin" else args)
        if answer.startswith('{"executable": 5'):  # every field it needs is there
            assert outcome.returncode == 3, outcome.stderr  # an empty environment
            continue
        assert_input_error(outcome, str(python))


# ---------------------------------------------------------------------------------------------
# an undecodable byte in a name: write what can be written, report the bad entry


def _undecodable_dist(site: Path, name: bytes, dir_name: bytes) -> None:
    raw = os.fsencode(site) + b"/" + dir_name
    os.mkdir(raw)
    with open(raw + b"/METADATA", "wb") as handle:
        handle.write(b"Metadata-Version: 2.1\nName: " + name + b"\nVersion: 0.17.0\n")


@pytest.mark.parametrize(
    ("name", "dir_name"),
    [(b"tr\xffl", b"tr\xffl-0.17.0.dist-info"), (b"trl", b"trl-0.17.0\xff.dist-info")],
    ids=["name-and-directory", "directory"],
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_undecodable_dist_info_name_with_pin_o(
    tmp_path: Path, name: bytes, dir_name: bytes, fmt: str
) -> None:
    site = tmp_path / "site"
    make_dist(site, "deepspeed", "0.14.2")
    _undecodable_dist(site, name, dir_name)
    output = tmp_path / "constraints.txt"
    output.write_text("previous\n", encoding="utf-8")
    args = ["pin", "--path", str(site), "--no-probe", "--offline", "--freeze", "-f", fmt]
    outcome = run_hostile([*args, "-o", str(output)])
    assert outcome.returncode in (0, 1), outcome.stderr
    text = output.read_text(encoding="utf-8")  # written, and valid UTF-8
    assert "not valid UTF-8" in outcome.stderr and "Traceback" not in outcome.stderr
    notes = json.loads(text)["notes"] if fmt == "json" else text.splitlines()
    assert any("\\xff" in note and "not valid UTF-8" in note for note in notes), notes
    if fmt == "text":  # what pip reads: the readable distributions only, every line valid
        # the readable distribution is pinned (which release: the offline proof's business)
        assert any(line.startswith("deepspeed==") for line in text.splitlines())
        assert all(line.startswith("#") or line.isascii() for line in text.splitlines())


def test_undecodable_dist_info_name_with_doctor_o(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "deepspeed", "0.14.2")
    _undecodable_dist(site, b"tr\xffl", b"tr\xffl-0.17.0.dist-info")
    output = tmp_path / "report.json"
    outcome = run_hostile(
        ["doctor", "--path", str(site), "--no-probe", "-f", "json", "-o", str(output)]
    )
    assert outcome.returncode in (0, 1), outcome.stderr
    (problem,) = json.loads(output.read_text(encoding="utf-8"))["environment"]["problems"]
    assert (
        problem["kind"] == "broken-metadata" and "tr\\xffl-0.17.0.dist-info" in problem["message"]
    )


def test_undecodable_byte_in_the_path_given(tmp_path: Path) -> None:
    """A --path whose own name is not UTF-8: every distribution in it is read, and the output
    carries the name escaped."""
    site = Path(os.fsdecode(os.fsencode(tmp_path) + b"/si\xffte"))
    make_dist(site, "deepspeed", "0.14.2")
    output = tmp_path / "report.json"
    outcome = run_hostile(
        ["doctor", "--path", str(site), "--no-probe", "-f", "json", "-o", str(output)]
    )
    assert outcome.returncode in (0, 1), outcome.stderr
    document = json.loads(output.read_text(encoding="utf-8"))
    assert document["environment"]["packages"] == 1
    text = run_hostile(["doctor", "--path", str(site), "--no-probe"])
    assert text.returncode in (0, 1) and "si\\udcffte" in text.stdout


@pytest.mark.parametrize(
    "nodes",
    ["gpu[0-99999]x[0-99999]", "gpu[0-" + BIG + "]", "n[0-9][0-9][0-9][0-9][0-9][0-9]"],
    ids=["ranges-multiply", "5000-digit-bound", "six-brackets"],
)
def test_hostlist_that_expands_past_any_cluster(tmp_path: Path, nodes: str) -> None:
    """`--nodes` is Slurm hostlist syntax: a number too long for int(), or brackets whose
    ranges multiply to billions of names, is one line, promptly, not exit 70 or a hang."""
    reports = tmp_path / "reports"
    reports.mkdir()
    (reports / "a.json").write_text("{}", encoding="utf-8")
    outcome = run_hostile(["fleet", "--reports", str(reports), "--nodes", nodes])
    assert_input_error(outcome, "--nodes")
    assert len(outcome.stderr.rstrip("\n")) <= 500  # one short line


def test_escape_and_huge_driver_version_from_the_driver(tmp_path: Path, site: Path) -> None:
    """What NVML reports is input too (faked at the binding boundary): a GPU name carrying
    escape sequences is printed escaped, a 5,000-digit driver version is kept as text."""
    fake = paths.FAKE_NVML
    machine = json.loads((fake / "machines" / "h100.json").read_text(encoding="utf-8"))
    machine["devices"][0]["name"]["value"] = "NVIDIA \x1b[31mH100\x1b]0;pwned\x07"
    machine["driver"]["value"] = BIG
    (tmp_path / "evil.json").write_text(json.dumps(machine), encoding="utf-8")
    env = {"PYTHONPATH": str(fake), "COMPAT_FAKE_NVML": str(tmp_path / "evil")}
    for args in (["probe"], ["probe", "-f", "json"], ["doctor", "--path", str(site)]):
        outcome = run_hostile(args, env=env)
        assert outcome.returncode in (0, 1), outcome.stderr
        assert "\x1b" not in outcome.stdout + outcome.stderr and "\x07" not in outcome.stdout
        assert "Traceback" not in outcome.stderr and "H100" in outcome.stdout
