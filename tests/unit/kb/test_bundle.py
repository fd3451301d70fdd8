"""`compat matrix update` against a real HTTP server on 127.0.0.1, bundles built by the release
script, and the knowledge base every report names."""

from __future__ import annotations

import datetime
import io
import json
import shutil
import socket
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from compat import __version__
from compat.kb.bundle import build_bundle, index_document, read_bundle
from compat.kb.knowledge import MATRIX_DIR
from tests.conftest import run_cli
from tests.dists import make_dist
from tests.lib import paths
from tests.lib.sessioncache import built_once, run_root

ROOT = paths.REPO
BUNDLE_ONLY_RULE = """\
schema: compat.matrix/1
rules:
  - id: bundle-only-demo-rule
    title: A rule only the bundle has
    severity: warning
    evidence: verified
    when:
      packages:
        demo-lib: "<2"
    fix:
      summary: upgrade demo-lib
      constraints: ["demo-lib>=2"]
    references: ["https://example.com/demo-lib/issues/1"]
    examples:
      affected: [{packages: {demo-lib: "1.0"}}]
      clear: [{packages: {demo-lib: "2.0"}}]
"""


class FileServer:
    """Serves `files` (path -> bytes) on 127.0.0.1; `faults` per path: "slow", "truncate", an
    HTTP status code, or "short" (a shorter body with a matching Content-Length)."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.faults: dict[str, object] = {}
        self.requests: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                outer.requests.append(self.path)
                fault = outer.faults.get(self.path)
                body = outer.files.get(self.path)
                if isinstance(fault, str) and fault.startswith("redirect:"):
                    self.send_response(302)
                    self.send_header("Location", fault.removeprefix("redirect:"))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if isinstance(fault, int) or body is None:
                    self.send_response(fault if isinstance(fault, int) else 404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if fault == "slow":
                    time.sleep(3)
                if fault == "short":
                    body = body[: len(body) // 2]
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2] if fault == "truncate" else body)
                if fault == "truncate":
                    self.wfile.flush()
                    self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.handle_error = lambda request, client_address: None  # type: ignore[method-assign]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def server() -> Iterator[FileServer]:
    files = FileServer()
    yield files
    files.close()


def build(tmp_path: Path, version: str, *extra: tuple[str, str], **options: str) -> Path:
    """A bundle and index made by scripts/build_bundle.py from the shipped rules plus `extra`."""
    matrix = tmp_path / f"matrix-{version}"
    shutil.copytree(MATRIX_DIR, matrix)
    for name, text in extra:
        (matrix / name).write_text(text, encoding="utf-8")
    out = tmp_path / f"out-{version}"
    flags = [f"--{key.replace('_', '-')}={value}" for key, value in options.items()]
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_bundle.py"), "--version", version,
         "--out", str(out), "--matrix", str(matrix), *flags],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return out


def built(request: pytest.FixtureRequest, version: str, *extra: tuple[str, str]) -> Path:
    """build()'s output for these inputs, made once for the run (the release script is
    reproducible: test_the_release_script_is_reproducible builds twice to prove it) and shared
    read-only by every test that publishes the same bundle."""
    inputs = [version, *(part for pair in extra for part in pair), MATRIX_DIR]
    inputs.append(ROOT / "scripts" / "build_bundle.py")

    def make(directory: Path) -> None:
        build(directory, version, *extra)

    return built_once("bundle", inputs, make, run_root(request)) / f"out-{version}"


def publish(server: FileServer, out: Path) -> str:
    for path in out.iterdir():
        server.files[f"/kb/{path.name}"] = path.read_bytes()
    return server.url("/kb/compat-kb-index.json")


def bundle_path(out: Path) -> str:
    return "/kb/" + next(out.glob("*.tar.gz")).name


def knowledge_base(tmp_path: Path) -> tuple[dict[str, Any], list[str]]:
    site = tmp_path / "site"
    if not site.exists():
        make_dist(site, "demo-lib", "1.0")
    result = run_cli(["doctor", "--path", str(site), "--no-probe", "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    document = result.json()
    return document["knowledge_base"], [f["rule"] for f in document["findings"]]


def update(*args: str) -> tuple[int, list[str], str]:
    result = run_cli(["matrix", "update", "--timeout", "1", *args])
    return result.exit_code, result.stderr.splitlines(), result.stdout


SHIPPED = {"source": "shipped", "version": __version__}


def test_a_good_bundle_is_taken_and_used_by_every_report(
    tmp_path: Path, server: FileServer, request: pytest.FixtureRequest
) -> None:
    out = built(request, "2026.11.24", ("extra.yaml", BUNDLE_ONLY_RULE))
    url = publish(server, out)
    before, rules = knowledge_base(tmp_path)
    assert {k: before[k] for k in SHIPPED} == SHIPPED
    assert "bundle-only-demo-rule" not in rules

    code, errors, stdout = update("--url", url)
    assert (code, errors) == (0, [])
    total = before["rules"] + 1  # the shipped rules and the bundle's own
    assert stdout.startswith(f"knowledge base updated to bundle 2026.11.24 ({total} rules, sha256:")
    after, rules = knowledge_base(tmp_path)
    assert {k: after[k] for k in SHIPPED} == {"source": "bundle", "version": "2026.11.24"}
    assert after["digest"] != before["digest"] and after["rules"] == before["rules"] + 1
    assert "bundle-only-demo-rule" in rules
    text = run_cli(["doctor", "--path", str(tmp_path / "site"), "--no-probe"]).stdout
    assert "knowledge base: bundle 2026.11.24" in text.splitlines()[0]
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("demo-lib==1.0\n")
    checked = run_cli(["check", str(requirements), "--offline", "--format", "json"])
    assert checked.exit_code in (0, 1), checked.stderr
    assert checked.json()["knowledge_base"]["source"] == "bundle"
    assert "bundle-only-demo-rule" in [f["rule"] for f in checked.json()["findings"]]
    sarif = run_cli(["check", str(requirements), "--offline", "--format", "sarif"])
    properties = sarif.json()["runs"][0]["properties"]["knowledgeBase"]
    assert (properties["source"], properties["version"]) == ("bundle", "2026.11.24")

    listed = run_cli(["matrix", "list"]).stdout.splitlines()[-1]
    counted = run_cli(["matrix", "list", "--format", "json"]).json()["counted"]
    assert listed.startswith(f"{counted} rules ({total} entries;") or listed.startswith(
        f"{total} rules · sha256:"
    )
    assert listed.endswith(" · bundle 2026.11.24")
    assert run_cli(["matrix", "list", "--format", "json"]).json()["source"] == "bundle"

    # Asked again: the index names the bundle in force, so the bundle is not downloaded again.
    server.requests.clear()
    code, _, stdout = update("--url", url)
    assert code == 0 and "already current: bundle 2026.11.24" in stdout
    assert server.requests == ["/kb/compat-kb-index.json"]

    # --reset: back to the shipped rules.
    assert run_cli(["matrix", "update", "--reset"]).exit_code == 0
    assert {k: knowledge_base(tmp_path)[0][k] for k in SHIPPED} == SHIPPED


def test_the_url_comes_from_the_environment(tmp_path: Path, server: FileServer) -> None:
    url = publish(server, build(tmp_path, "7"))
    result = run_cli(["matrix", "update"], env={"COMPAT_MATRIX_URL": url})
    assert result.exit_code == 0, result.stderr
    assert server.requests[0] == "/kb/compat-kb-index.json"


def _tamper(server: FileServer, out: Path) -> None:
    path = bundle_path(out)
    data = bytearray(server.files[path])
    data[len(data) // 2] ^= 0xFF
    server.files[path] = bytes(data)


def _wrong_digest(server: FileServer, out: Path) -> None:
    index = json.loads(server.files["/kb/compat-kb-index.json"])
    index["sha256"] = "0" * 64
    server.files["/kb/compat-kb-index.json"] = json.dumps(index).encode()


def _dead(server: FileServer, out: Path) -> None:
    server.close()


@pytest.mark.parametrize(
    ("case", "spoil", "code", "says"),
    [
        ("tampered", _tamper, 2, "does not match the index's"),
        ("wrong-digest", _wrong_digest, 2, "does not match the index's"),
        ("truncated", lambda s, o: s.faults.update({bundle_path(o): "truncate"}), 3, "incomplete"),
        ("short", lambda s, o: s.faults.update({bundle_path(o): "short"}), 2, "truncated download"),
        ("slow", lambda s, o: s.faults.update({bundle_path(o): "slow"}), 3, "within 1s"),
        ("missing", lambda s, o: s.faults.update({bundle_path(o): 404}), 3, "HTTP 404"),
        ("index-error", lambda s, o: s.faults.update({"/kb/compat-kb-index.json": 500}), 3, "500"),
        ("not-an-index", lambda s, o: s.files.update({"/kb/compat-kb-index.json": b"<html>"}), 2,
         "not JSON"),
        ("dead-server", _dead, 3, "127.0.0.1"),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)  # fmt: skip
def test_a_bad_bundle_or_server_leaves_the_knowledge_base_in_force(
    tmp_path: Path,
    server: FileServer,
    request: pytest.FixtureRequest,
    case: str,
    spoil: Any,
    code: int,
    says: str,
) -> None:
    out = built(request, "2026.11.24", ("extra.yaml", BUNDLE_ONLY_RULE))
    url = publish(server, out)
    spoil(server, out)
    exit_code, errors, stdout = update("--url", url)
    assert exit_code == code
    assert stdout == ""
    assert len(errors) == 1, errors  # one clear line, no hint, no traceback
    assert errors[0].startswith("compat: error: matrix update: ")
    assert says in errors[0]
    assert errors[0].endswith(
        f"the knowledge base shipped with compat {__version__} stays in force"
    )
    kb, rules = knowledge_base(tmp_path)
    assert {k: kb[k] for k in SHIPPED} == SHIPPED
    assert "bundle-only-demo-rule" not in rules


def test_a_failed_update_keeps_the_bundle_in_force(tmp_path: Path, server: FileServer) -> None:
    publish(server, build(tmp_path, "1", ("extra.yaml", BUNDLE_ONLY_RULE)))
    assert update("--url", server.url("/kb/compat-kb-index.json"))[0] == 0
    newer = build(tmp_path, "2")
    url = publish(server, newer)
    _tamper(server, newer)
    code, errors, _ = update("--url", url)
    assert code == 2
    assert errors[0].endswith("; bundle 1 stays in force")
    kb, rules = knowledge_base(tmp_path)
    assert (kb["source"], kb["version"]) == ("bundle", "1")
    assert "bundle-only-demo-rule" in rules


def test_bundles_whose_digest_matches_are_still_checked(tmp_path: Path, server: FileServer) -> None:
    # The release script refuses to build it; a hand-made (or hostile) bundle is refused on use.
    matrix = tmp_path / "matrix"
    shutil.copytree(MATRIX_DIR, matrix)
    broken = BUNDLE_ONLY_RULE.replace('demo-lib: "<2"', 'demo-lib: "=>2"')
    (matrix / "extra.yaml").write_text(broken, encoding="utf-8")
    data = build_bundle(matrix, "3", min_compat=__version__)
    out = tmp_path / "out-3"
    out.mkdir()
    (out / "compat-kb-3.tar.gz").write_bytes(data)
    index = index_document(data, "compat-kb-3.tar.gz", read_bundle(data, "test")[0])
    (out / "compat-kb-index.json").write_text(json.dumps(index), encoding="utf-8")
    url = publish(server, out)
    code, errors, _ = update("--url", url)
    assert code == 2 and "invalid rules" in errors[0] and "extra.yaml" in errors[0]
    assert len(errors) == 1

    url = publish(server, build(tmp_path, "4", min_compat="99.0"))
    code, errors, _ = update("--url", url)
    assert code == 2 and "needs compat 99.0 or newer" in errors[0]


def test_an_older_bundle_than_the_running_compat_is_ignored(
    tmp_path: Path, server: FileServer
) -> None:
    # Made from compat 0.0.1's rules: the running compat ships newer ones, and they win.
    url = publish(server, build(tmp_path, "5", compat_version="0.0.1", min_compat="0.0.1"))
    code, errors, _ = update("--url", url)
    assert code == 2 and "made for compat 0.0.1 to 0.0.1" in errors[0]


def test_plain_http_is_refused_except_on_loopback(tmp_path: Path, server: FileServer) -> None:
    code, errors, _ = update("--url", "http://example.com/compat-kb-index.json")
    assert code == 2 and "https only" in errors[0]
    # Nor through a redirect: refused before any connection to the plain-http host.
    url = publish(server, build(tmp_path, "9"))
    server.faults["/kb/compat-kb-index.json"] = "redirect:http://192.0.2.1/compat-kb-index.json"
    code, errors, _ = update("--url", url)
    assert code == 2 and errors[0].startswith("compat: error: matrix update: http://192.0.2.1/")
    assert "https only" in errors[0]


def test_matrix_lint_accepts_a_bundle(tmp_path: Path) -> None:
    out = build(tmp_path, "6", ("extra.yaml", BUNDLE_ONLY_RULE))
    bundle = next(out.glob("*.tar.gz"))
    result = run_cli(["matrix", "lint", str(bundle)])
    assert result.exit_code == 0, result.stderr
    shipped_files = len(list(MATRIX_DIR.glob("*.yaml")))
    shipped_rules = run_cli(["matrix", "list", "--format", "json"]).json()["rules"]
    expected = f"{len(shipped_rules) + 1} rules in {shipped_files + 1} file(s): OK"
    assert result.stdout.startswith(expected), result.stdout

    # A rule whose example contradicts it, inside an otherwise valid archive.
    bad = tmp_path / "bad.tar.gz"
    with tarfile.open(bundle) as source, tarfile.open(bad, "w:gz") as target:
        for member in source.getmembers():
            handle = source.extractfile(member)
            assert handle is not None
            data = handle.read()
            if member.name == "matrix/extra.yaml":
                data = data.replace(b'{demo-lib: "2.0"}', b'{demo-lib: "1.5"}')
            member.size = len(data)
            target.addfile(member, io.BytesIO(data))
    result = run_cli(["matrix", "lint", str(bad)])
    assert result.exit_code == 2
    assert "extra.yaml does not match its sha256 in the manifest" in result.stderr


def test_the_release_script_is_reproducible(tmp_path: Path) -> None:
    first = build(tmp_path / "a", "8")
    second = build(tmp_path / "b", "8")
    assert (first / "compat-kb-8.tar.gz").read_bytes() == (
        second / "compat-kb-8.tar.gz"
    ).read_bytes()
    assert (first / "compat-kb-index.json").read_text() == (
        second / "compat-kb-index.json"
    ).read_text()


def test_dead_port_is_really_dead() -> None:
    # The dead-server case relies on a closed port refusing connections.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    code, errors, _ = update("--url", f"http://127.0.0.1:{port}/compat-kb-index.json")
    assert code == 3 and len(errors) == 1


# Knowledge updates never go backwards (issue 42 item 14).


def test_an_older_bundle_is_refused_unless_a_downgrade_is_asked_for(
    tmp_path: Path, server: FileServer
) -> None:
    assert (
        update("--url", publish(server, build(tmp_path, "2", ("extra.yaml", BUNDLE_ONLY_RULE))))[0]
        == 0
    )
    url = publish(server, build(tmp_path, "1"))
    code, errors, _ = update("--url", url)
    assert code == 2 and len(errors) == 1
    assert "bundle 1 is older than bundle 2: refusing to go back" in errors[0]
    assert errors[0].endswith("; bundle 2 stays in force")
    kb, _ = knowledge_base(tmp_path)
    assert (kb["source"], kb["version"]) == ("bundle", "2")
    code, errors, stdout = update("--url", url, "--allow-downgrade")
    assert (code, errors) == (0, []) and "updated to bundle 1" in stdout


def test_an_earlier_date_is_older_whatever_the_version_says(
    tmp_path: Path, server: FileServer
) -> None:
    # The newer bundle is dated the day the shipped rules were read (a fixed day would turn
    # older than them at the next refresh); the other one a higher version but an earlier day.
    shipped = json.loads((ROOT / "compat" / "data" / "kb-inputs.json").read_text())
    day = shipped["fetched"]["newest"]
    newer = build(tmp_path, day.replace("-", "."), date=day)
    assert update("--url", publish(server, newer))[0] == 0
    url = publish(server, build(tmp_path, "9999.12.01", date="2026-11-01"))
    code, errors, _ = update("--url", url)
    assert code == 2 and f"dated 2026-11-01, bundle {day.replace('-', '.')} {day}" in errors[0]
    # The shipped rules have a date too: the newest day their PyPI inputs were read.
    assert run_cli(["matrix", "update", "--reset"]).exit_code == 0
    code, errors, _ = update("--url", publish(server, build(tmp_path, "9", date="2020-01-01")))
    assert (
        code == 2
        and f"the rules shipped with compat {__version__} {shipped['fetched']['newest']}"
        in errors[0]
    )


def test_an_expired_bundle_is_a_warning_in_every_report(tmp_path: Path, server: FileServer) -> None:
    shipped = json.loads((ROOT / "compat" / "data" / "kb-inputs.json").read_text())
    # Dated the day the shipped rules were read (not older than them); it expired on that day,
    # or yesterday where that day is today (a bundle is expired the day after its expiry).
    date = shipped["fetched"]["newest"]
    day = min(date, (datetime.date.today() - datetime.timedelta(days=1)).isoformat())
    url = publish(server, build(tmp_path, "7", date=date, expires=day))
    assert update("--url", url)[0] == 0
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("demo-lib==1.0\n")
    document = run_cli(["check", str(requirements), "--offline", "--format", "json"]).json()
    assert document["knowledge_base"]["expired"] == day
    assert document["notes"][0].startswith(f"warning: knowledge bundle 7 expired on {day}")
    text = run_cli(["check", str(requirements), "--offline"]).stdout
    assert f"knowledge base: bundle 7 (EXPIRED on {day}" in text.splitlines()[0]
    assert f"knowledge bundle 7 expired on {day}" in text.splitlines()[-1]
    sarif = run_cli(["check", str(requirements), "--offline", "--format", "sarif"]).json()
    assert sarif["runs"][0]["properties"]["knowledgeBase"]["expired"] == day
    junit = run_cli(["check", str(requirements), "--offline", "--format", "junit"]).stdout
    assert f"EXPIRED on {day}" in junit
    doctor, _ = knowledge_base(tmp_path)
    assert doctor["expired"] == day


def test_without_a_configured_index_the_command_says_how_to_set_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COMPAT_MATRIX_URL", raising=False)
    result = run_cli(["matrix", "update"])
    assert result.exit_code == 2
    assert "no knowledge-base index is configured: give --url URL or set COMPAT_MATRIX_URL" in (
        result.stderr
    )
