"""Hostile input, one named case per defect class of issue 11, through `python -m compat` as a real
process: each must exit 2 with one `compat: error:` line within 10 s (never SIGSEGV, never 70),
leave any -o target intact, and no planted cache may change a verdict."""

from __future__ import annotations

import json
import marshal
import os
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.dists import make_dist
from tests.fuzzing import assert_input_error, rule_file, run_hostile
from tests.lib.doctor import doctor_argv

DS_RULE = "deepspeed-zero3-offload-clip-device-mismatch"
ZERO3_OFFLOAD = {
    "gradient_clipping": 1.0,
    "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}},
}
NESTED_BRACKETS = "[" * 50_000
# Nine levels of nine aliases: 9**9 nodes once expanded, 500 bytes on disk.
ALIAS_BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """An environment with a known affected finding (doctor exits 1 with the config below)."""
    site = tmp_path / "site"
    make_dist(site, "deepspeed", "0.14.2")
    make_dist(site, "torch", "2.3.0")
    return site


# ---------------------------------------------------------------------------------------------
# crashes and hangs in the YAML loader


@pytest.mark.parametrize("content", [NESTED_BRACKETS, ALIAS_BOMB], ids=["nested", "alias-bomb"])
@pytest.mark.parametrize("option", ["--accelerate-config", "--hardware", "--matrix"])
def test_yaml_depth_and_alias_bombs(tmp_path: Path, site: Path, option: str, content: str) -> None:
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text(content, encoding="utf-8")
    # The contract only: exit 2, one line naming the file, no traceback. Which check refuses the
    # document (compat's own bound, or libyaml's nesting limit in PyYAML >= 6.0.3) and its wording
    # are not: they change with the dependency.
    assert_input_error(run_hostile(doctor_argv(site, option, str(hostile))), "hostile.yaml")


def test_recursive_alias_in_a_rule_file(tmp_path: Path, site: Path) -> None:
    hostile = tmp_path / "rules.yaml"
    hostile.write_text("schema: compat.matrix/1\nrules: &r [*r]\n", encoding="utf-8")
    assert_input_error(run_hostile(doctor_argv(site, "--matrix", str(hostile))), "rules.yaml")


# ---------------------------------------------------------------------------------------------
# hangs in the requirement and lock parsers


def test_requirement_line_of_200000_spaces(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.1" + " " * 200_000 + "x\n", encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline"])
    assert_input_error(outcome, "requirements.txt:1")


def test_spaces_before_a_comment_stay_fast(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0" + " " * 90_000 + "# pinned\n", encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline", "--format", "json"])
    assert outcome.returncode in (0, 1), outcome.stderr  # quadratic work would hit the CPU limit


def test_dependency_groups_including_each_group_twice(tmp_path: Path) -> None:
    groups = [
        f'g{i} = [{{include-group = "g{i + 1}"}}, {{include-group = "g{i + 1}"}}]'
        for i in range(60)
    ]
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "x"\nversion = "1"\n[dependency-groups]\n'
        + "\n".join(groups)
        + '\ng60 = ["trl==0.1", {include-group = "missing"}]\n',
        encoding="utf-8",
    )
    outcome = run_hostile(["check", str(pyproject), "--offline"])
    assert_input_error(outcome, "unknown group 'missing'")


def test_pylock_with_escaped_names(tmp_path: Path) -> None:
    entries = "".join(
        f'[[packages]]\nname = "\\u0070kg{i}"\nversion = "1.0"\n' for i in range(20_000)
    )
    pylock = tmp_path / "pylock.toml"
    pylock.write_text(
        f'lock-version = "1.0"\ncreated-by = "x"\n{entries}'
        '[[packages]]\nname = "trl"\nversion = "not a version"\n',
        encoding="utf-8",
    )
    outcome = run_hostile(["check", str(pylock), "--offline"])
    assert_input_error(outcome, "invalid version")


@pytest.mark.parametrize(
    "option",
    ["check", "--deepspeed-config", "--hardware", "--baseline", "--matrix", "-r", "explain"],
)
def test_a_fifo_as_input_file(tmp_path: Path, site: Path, option: str) -> None:
    fifo = tmp_path / "input.json"
    os.mkfifo(fifo)
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    if option == "check":
        args = ["check", str(fifo), "--offline"]
    elif option in ("--baseline",):
        args = ["check", str(requirements), "--offline", option, str(fifo)]
    elif option == "-r":
        requirements.write_text(f"-r {fifo}\n", encoding="utf-8")
        args = ["check", str(requirements), "--offline"]
    elif option == "explain":  # a log is piped with '-', never read from a FIFO that may block
        args = ["explain", str(fifo)]
    else:
        args = doctor_argv(site, option, str(fifo))
    assert_input_error(run_hostile(args), "input.json")


@pytest.mark.parametrize("option", ["--deepspeed-config", "--accelerate-config"])
def test_dev_zero_as_a_config(site: Path, option: str) -> None:
    assert_input_error(run_hostile(doctor_argv(site, option, "/dev/zero")), "not a regular file")


def test_dev_zero_as_an_include(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("-r /dev/zero\n", encoding="utf-8")
    assert_input_error(run_hostile(["check", str(requirements), "--offline"]), "/dev/zero")


def test_symptom_with_nested_quantifiers_from_matrix(tmp_path: Path, site: Path) -> None:
    rules = rule_file(tmp_path / "rules.yaml", extra="symptoms: [{match: '(a+)+$'}]")
    log = tmp_path / "train.log"
    log.write_text("a" * 5000 + "!\n", encoding="utf-8")
    outcome = run_hostile(
        ["explain", str(log), "--path", str(site), "--no-probe", "--matrix", str(rules)]
    )
    assert_input_error(outcome, "rules.yaml", "can backtrack catastrophically")


# ---------------------------------------------------------------------------------------------
# caches that can't lie


def test_planted_rule_cache_never_changes_the_verdict(tmp_path: Path, site: Path) -> None:
    config = tmp_path / "ds.json"
    config.write_text(json.dumps(ZERO3_OFFLOAD), encoding="utf-8")
    cache = tmp_path / "cache"
    env = {"COMPAT_CACHE_DIR": str(cache)}
    args = doctor_argv(site, "--deepspeed-config", str(config), "--format", "json")
    first = run_hostile(args, env=env)
    assert first.returncode == 1, first.stderr
    digest = json.loads(first.stdout)["knowledge_base"]["digest"]
    planted = marshal.dumps((digest, (), (), ()))
    cache_files = [p for p in cache.iterdir() if p.name.startswith("kb-")]
    assert cache_files
    for path in cache_files:  # overwrite every cache file, and plant the old format's name too
        path.write_bytes(planted)
    (cache / f"kb-{'0' * 32}.marshal").write_bytes(planted)
    again = run_hostile(args, env=env)
    assert again.returncode == 1, again.stderr
    assert {f["rule"] for f in json.loads(again.stdout)["findings"]} >= {DS_RULE}
    (cache / "kb.key").write_bytes(b"k" * 32)  # a key someone else chose: still no trust
    (cache / "kb.key").chmod(0o644)
    third = run_hostile(args, env=env)
    assert third.returncode == 1 and DS_RULE in third.stdout


def test_cache_dir_with_tilde_and_relative_xdg(tmp_path: Path, site: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    work.mkdir()
    outcome = run_hostile(
        doctor_argv(site), cwd=work, env={"HOME": str(home), "COMPAT_CACHE_DIR": "~/x"}
    )
    assert outcome.returncode in (0, 1), outcome.stderr
    assert list(work.iterdir()) == []
    assert (home / "x").is_dir()
    env = {"HOME": str(home), "XDG_CACHE_HOME": "rel/cache", "COMPAT_CACHE_DIR": ""}
    outcome = run_hostile(doctor_argv(site), cwd=work, env=env)
    assert outcome.returncode in (0, 1), outcome.stderr
    assert list(work.iterdir()) == []
    assert (home / ".cache" / "compat").is_dir()


# ---------------------------------------------------------------------------------------------
# exit 70 where the contract says 2


BIG_INT = "1" * 5000


@pytest.mark.parametrize(
    ("name", "content", "kind"),
    [
        ("ds.json", '{"zero_optimization": {"stage": ' + BIG_INT + "}}", "--deepspeed-config"),
        ("acc.yaml", f"num_processes: {BIG_INT}\n", "--accelerate-config"),
        ("hw.json", '{"gpus": [{"name": "A100", "memory_total_mib": ' + BIG_INT + "}]}", "--hardware"),
        ("ds.json", "[" * 100_000, "--deepspeed-config"),
        ("ds.json", '{"gradient_clipping": NaN}', "--deepspeed-config"),
        ("acc.yaml", "distributed_type: DEEPSPEED\ndeepspeed_config: {gradient_clipping: .nan}\n", "--accelerate-config"),
    ],
    ids=["json-int", "yaml-int", "profile-int", "json-depth", "json-nan", "yaml-nan"],
)  # fmt: skip
def test_configs(tmp_path: Path, site: Path, name: str, content: str, kind: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert_input_error(run_hostile(doctor_argv(site, kind, str(path))), name)


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("pyproject.toml", f'[project]\nname = "x"\nversion = "1"\nn = {BIG_INT}\n', "pyproject.toml"),
        ("pyproject.toml", "a = " + "[" * 20_000 + "]" * 20_000 + "\n", "pyproject.toml"),
        ("pyproject.toml", '[project]\nname = "x"\ndependencies = 5\n', "project.dependencies"),
        ("report.json", '{"version": "1", "install": 5}', "'install' must be a list"),
        ("report.json", '{"version": "1", "install": [], "x": ' + BIG_INT + "}", "report.json"),
        ("requirements.txt", "trl==0.1; " + "(" * 5000 + 'os_name == "posix"' + ")" * 5000 + "\n", "requirements.txt:1"),
        ("requirements.txt", 'trl==0.17.0; os_name ~= "posix"\n', "requirements.txt:1"),
    ],
    ids=["toml-int", "toml-depth", "dependencies-5", "install-5", "report-int", "marker-depth", "marker-compare"],
)  # fmt: skip
def test_declared_files(tmp_path: Path, name: str, content: str, fragment: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert_input_error(run_hostile(["check", str(path), "--offline"]), fragment)


def test_invalid_utf8_in_a_json_report(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_bytes(b'{"version": "1",\n "install": ["\xff"]}')
    assert_input_error(run_hostile(["check", str(report), "--offline"]), "report.json:2", "UTF-8")


def test_include_chain_deeper_than_the_limit(tmp_path: Path) -> None:
    for index in range(200):
        (tmp_path / f"r{index}.txt").write_text(f"-r r{index + 1}.txt\n", encoding="utf-8")
    (tmp_path / "r200.txt").write_text("trl==0.17.0\n", encoding="utf-8")
    assert_input_error(run_hostile(["check", str(tmp_path / "r0.txt"), "--offline"]), "nested")


def test_baseline_with_findings_5(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"schema": "compat.report/1", "findings": 5}', encoding="utf-8")
    outcome = run_hostile(["check", str(requirements), "--offline", "--baseline", str(baseline)])
    assert_input_error(outcome, "findings must be a list")


def test_waiver_until_a_datetime(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("trl==0.17.0\n", encoding="utf-8")
    (tmp_path / ".compat.toml").write_text(
        '[[ignore]]\nid = "x"\nreason = "y"\nuntil = 2030-01-01T00:00:00\n', encoding="utf-8"
    )
    outcome = run_hostile(["check", "requirements.txt", "--offline"], cwd=tmp_path)
    assert_input_error(outcome, "until must be a date")


@pytest.mark.parametrize(
    ("extra_when", "extra", "fragment"),
    [
        ("", "", None),
        (', platform: os_name ~= "posix"', "", "invalid marker"),
        ("", "", "severity"),
        (
            ", any: " + "[{any: " * 40 + "[{python: '>=3'}, {python: '>=3'}]" + "}]" * 40,
            "",
            "nested",
        ),
    ],
    ids=["valid", "marker-compare", "severity-mapping", "any-depth"],
)
def test_rule_files(
    tmp_path: Path, site: Path, extra_when: str, extra: str, fragment: str | None
) -> None:
    rules = rule_file(tmp_path / "rules.yaml", extra=extra, extra_when=extra_when)
    if fragment == "severity":
        rules.write_text(rules.read_text().replace("severity: error", "severity: {}"))
    outcome = run_hostile(doctor_argv(site, "--matrix", str(rules)))
    if fragment is None:
        assert outcome.returncode in (0, 1), outcome.stderr
    else:
        assert_input_error(outcome, "rules.yaml", fragment)


def test_timeout_nan_and_set_nan(tmp_path: Path, site: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    assert_input_error(run_hostile(["check", str(requirements), "--timeout", "nan"]), "--timeout")
    assert_input_error(run_hostile(doctor_argv(site, "--set", "beta=nan")), "beta=nan")
    assert_input_error(run_hostile(doctor_argv(site, "--set", "beta=inf")), "beta=inf")


def test_error_text_is_one_escaped_line(tmp_path: Path, site: Path) -> None:
    outcome = run_hostile(doctor_argv(site, "--set", "zero_stage=a\nb\x1b[2Jc"))
    assert_input_error(outcome, "\\n", "\\x1b")


# ---------------------------------------------------------------------------------------------
# -o and other places compat writes


@pytest.mark.parametrize("kind", ["directory", "empty", "symlink", "fifo"])
def test_output_only_to_regular_files(tmp_path: Path, site: Path, kind: str) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    if kind == "directory":
        target = str(tmp_path)
    elif kind == "empty":
        target = ""
    elif kind == "symlink":
        target = str(tmp_path / "link.txt")
        os.symlink(victim, target)
    else:
        target = str(tmp_path / "pipe")
        os.mkfifo(target)
    outcome = run_hostile(doctor_argv(site, "-o", target))
    assert_input_error(outcome, "-o")
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    if kind == "symlink":
        assert Path(target).is_symlink()
    if kind == "fifo":
        assert Path(target).is_fifo()


def test_step_summary_naming_a_directory(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl==0.17.0\n", encoding="utf-8")
    outcome = run_hostile(
        ["check", str(requirements), "--offline", "--step-summary"],
        env={"GITHUB_STEP_SUMMARY": str(tmp_path)},
    )
    assert_input_error(outcome, "GITHUB_STEP_SUMMARY", "directory")


def test_undecodable_dist_info_name_written_with_o(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(site, "trl", "0.17.0")
    raw = os.fsencode(site) + b"/tr\xffl-0.17.0.dist-info"
    os.mkdir(raw)
    with open(raw + b"/METADATA", "wb") as handle:
        handle.write(b"Metadata-Version: 2.1\nName: tr\xffl\nVersion: 0.17.0\n")
    output = tmp_path / "report.txt"
    output.write_text("previous report\n", encoding="utf-8")
    outcome = run_hostile(doctor_argv(site, "--format", "json", "-o", str(output)))
    assert outcome.returncode in (0, 1), outcome.stderr  # written; the bad entry reported in it
    problems = json.loads(output.read_text(encoding="utf-8"))["environment"]["problems"]
    assert [p["kind"] for p in problems] == ["broken-metadata"]


def test_terminal_escapes_in_a_metadata_name(tmp_path: Path) -> None:
    site = tmp_path / "site"
    make_dist(
        site,
        "evil",
        "1.0",
        metadata_text="Metadata-Version: 2.1\nName: evil\x1b]0;pwned\x07\x1b[2J\nVersion: 1.0\n",
        dir_name="evil-1.0.dist-info",
    )
    make_dist(site, "deepspeed", "0.14.2")
    for fmt in ("text", "markdown", "json"):
        outcome = run_hostile(doctor_argv(site, "--format", fmt))
        assert outcome.returncode in (0, 1), outcome.stderr
        assert "\x1b" not in outcome.stdout and "\x07" not in outcome.stdout
        assert "\x1b" not in outcome.stderr


# ---------------------------------------------------------------------------------------------
# a hostile package index on 127.0.0.1


class _Hostile(BaseHTTPRequestHandler):
    mode = ""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        mode = type(self).mode
        if mode == "retry-after":
            self.send_response(503)
            self.send_header("Retry-After", "\u00b2".encode().decode("latin-1"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "ipv6":
            body = b'<a href="http://[::1/trl-0.17.0.tar.gz">trl-0.17.0.tar.gz</a>'
            content_type = "text/html"
        elif mode == "file-link":
            body = b'<a href="file:///etc/passwd#trl-0.17.0.tar.gz">trl-0.17.0.tar.gz</a>'
            content_type = "text/html"
        else:  # punycode
            body = b"<a href='trl-0.17.0.tar.gz'>x</a>" * 1000
            content_type = "text/html; charset=punycode"
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def hostile_index() -> Iterator[tuple[str, type[_Hostile]]]:
    handler = type("Handler", (_Hostile,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("mode", ["ipv6", "file-link", "punycode", "retry-after"])
def test_hostile_index_answers(
    tmp_path: Path, hostile_index: tuple[str, type[_Hostile]], mode: str
) -> None:
    url, handler = hostile_index
    handler.mode = mode
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl>=0.1\n", encoding="utf-8")
    # pin reads the index itself (check hands ranges to pip or uv, which have their own client)
    outcome = run_hostile(["pin", "-r", str(requirements), "--index-url", url, "--timeout", "3"])
    assert_input_error(outcome, "/simple/trl/")
    if mode == "file-link":
        assert "root:" not in outcome.stdout + outcome.stderr


@pytest.fixture
def slow_loris() -> Iterator[str]:
    """Answers headers, then one body byte every 0.2 s: each read is quick, the whole never ends."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/vnd.pypi.simple.v1+json\r\n"
                b"Content-Length: 1000000\r\n\r\n"
            )
            while not stop.is_set():
                try:
                    conn.sendall(b" ")
                except OSError:
                    return
                time.sleep(0.2)

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/simple"
    finally:
        stop.set()
        listener.close()


def test_slow_loris_index(tmp_path: Path, slow_loris: str) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("trl>=0.1\n", encoding="utf-8")
    outcome = run_hostile(
        ["pin", "-r", str(requirements), "--index-url", slow_loris, "--timeout", "1"]
    )
    assert_input_error(outcome, "within 1s")
    # Without the per-attempt deadline the server would hold the request until the backstop (60 s);
    # the margin over the retries' few seconds is for a loaded machine's start-up, not the server.
    assert outcome.seconds < 20


@pytest.mark.parametrize("max_age", [1e300, "1e300", None, float("nan")])
def test_http_cache_max_age_is_clamped(tmp_path: Path, max_age: object) -> None:
    """A cache entry that says it stays fresh forever (or is malformed) is asked for again."""
    from compat.resolve.sources.index import IndexClient
    from compat.resolve.sources.indexconfig import IndexConfig
    from tests.indexserver import Dist, IndexServer

    with IndexServer({"trl": [Dist("trl", "0.17.0")]}) as index:
        config = IndexConfig(index.url, (), "test")
        with IndexClient(config, cache_dir=tmp_path) as first:
            assert [str(c.version) for c in first.candidates("trl")] == ["0.17.0"]
        entries = list((tmp_path / "http").glob("*/*.json"))
        assert len(entries) == 1
        meta = json.loads(entries[0].read_text(encoding="utf-8"))
        meta.update(stored=time.time() - 2 * 86_400, max_age=max_age)
        entries[0].write_text(json.dumps(meta), encoding="utf-8")  # NaN: Python's JSON writes it
        with IndexClient(config, cache_dir=tmp_path) as second:
            assert [str(c.version) for c in second.candidates("trl")] == ["0.17.0"]
        assert index.count("/simple/trl/") == 2  # stale after a day at most: asked again


def test_nul_byte_in_an_include_name(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("-r \x00\n", encoding="utf-8")
    assert_input_error(run_hostile(["check", str(requirements), "--offline"]), "NUL byte")


def test_pattern_that_warns_is_one_line(tmp_path: Path, site: Path) -> None:
    rules = rule_file(tmp_path / "rules.yaml", extra="symptoms: [{match: '[[a]+)+'}]")
    assert_input_error(run_hostile(doctor_argv(site, "--matrix", str(rules))), "rules.yaml")


def test_output_write_failure_keeps_the_target(tmp_path: Path, site: Path) -> None:
    """A write that fails midway (here EFBIG from a file-size limit, as a full disk gives ENOSPC)
    is exit 2 with the target as it was and no temporary file left behind."""
    import resource
    import subprocess
    import sys

    target = tmp_path / "out" / "report.json"
    target.parent.mkdir()
    target.write_text("previous\n", encoding="utf-8")

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))  # Python ignores SIGXFSZ

    proc = subprocess.run(
        [sys.executable, "-m", "compat", *doctor_argv(site, "--format", "json", "-o", str(target))],
        capture_output=True,
        text=True,
        timeout=10,
        preexec_fn=limit,
        env={**os.environ, "COMPAT_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("compat: error: ") and "-o: cannot write" in proc.stderr
    assert target.read_text(encoding="utf-8") == "previous\n"
    assert [p.name for p in target.parent.iterdir()] == ["report.json"]


def test_planted_bundle_pointer_owned_by_another_user_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `kb-bundles/current.json` others can write (a shared cache) never replaces the rules."""
    from compat.kb.bundlestate import active_bundle, bundles_dir

    env = {"COMPAT_CACHE_DIR": str(tmp_path / "cache")}
    root = bundles_dir(env)
    (root / "b1" / "matrix").mkdir(parents=True)
    (root / "current.json").write_text(
        json.dumps(
            {
                "directory": "b1",
                "version": "9",
                "sha256": "0" * 64,
                "source": "x",
                "compat_version": "0.1.0",
                "min_compat": "0.1.0",
            }
        ),
        encoding="utf-8",
    )
    (root / "b1").chmod(0o777)  # world-writable: anyone could have put rules there
    monkeypatch.setenv("COMPAT_CACHE_DIR", env["COMPAT_CACHE_DIR"])
    assert active_bundle() is None
    (root / "b1").chmod(0o755)
    assert active_bundle() is not None  # the same files, this user's alone: in force
