"""`--format html`: one self-contained page a person can read and share.

Rendered from compat's JSON documents (plain data: `compat.report/1` for doctor and check,
`compat.explain/1`, `compat.fleet/2`), so this module needs nothing but the standard library and
never imports the commands that made them. The page loads nothing: styles are inline, there is
no script, and a Content-Security-Policy forbids every fetch and script, so a hostile value that
got past escaping still could not run or call out. Every value from input goes through `_e`
(HTML-escaped, control characters shown as `\\u001b`). Status and severity are words in the
page, never colour alone; headings and tables are semantic.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# Control characters (newline and tab kept), C1, the line separators and lone surrogates: shown
# as text, the way compat.cli.output escapes them for a terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")

_STYLE = """
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg2: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  margin: 0; background: #fff; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line);
  padding-bottom: .25rem; }
h3 { font-size: 1.1rem; margin: 1.25rem 0 .5rem; }
h4 { font-size: 1rem; margin: 0 0 .25rem; }
p.sub { color: var(--muted); margin: 0 0 1rem; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: .9em; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { border: 1px solid var(--line); padding: .35rem .5rem; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--bg2); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
article.finding { border: 1px solid var(--line); border-left-width: 6px; border-radius: 6px;
  padding: .75rem 1rem; margin: .75rem 0; }
article.affected, article.confirmed { border-left-color: #cf222e; }
article.possible, article.symptom-only { border-left-color: #bf8700; }
article.info, article.outside-range { border-left-color: #57606a; }
.badge { display: inline-block; font-size: .75rem; font-weight: 700; letter-spacing: .03em;
  text-transform: uppercase; border: 1px solid currentColor; border-radius: 1rem;
  padding: 0 .5rem; margin-right: .35rem; white-space: nowrap; }
.b-affected, .b-error, .b-confirmed, .b-dead, .b-timeout, .b-unreachable, .b-missing
  { color: #a40e26; background: #ffebe9; }
.b-possible, .b-warning, .b-symptom-only { color: #7d4e00; background: #fff8c5; }
.b-ok, .b-verified { color: #116329; background: #dafbe1; }
.b-info, .b-reported, .b-outside-range, .b-unknown { color: #424a53; background: #eaeef2; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0 0; }
dt { font-weight: 600; color: var(--muted); }
dd { margin: 0; }
dd ul, td ul { margin: 0; padding-left: 1.1rem; }
.hostlist { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85em;
  overflow-wrap: anywhere; max-height: 8.5em; overflow-y: auto; display: block; }
.summary-cards { display: flex; flex-wrap: wrap; gap: .75rem; margin: 1rem 0; padding: 0;
  list-style: none; }
.summary-cards li { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .9rem;
  min-width: 8rem; }
.summary-cards strong { display: block; font-size: 1.4rem; }
.note { color: var(--muted); }
footer { margin-top: 3rem; color: var(--muted); font-size: .85rem; }
td.names { width: 55%; }
td.report { min-width: 15rem; }
td.value code { white-space: nowrap; overflow-wrap: normal; }
@media print { .hostlist { max-height: none; } }
"""

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

_STATUS_ORDER = ("affected", "possible")
_SEVERITY_ORDER = ("error", "warning", "info")


def _e(value: object) -> str:
    """Escaped text of any input value: markup inert, control characters visible."""
    text = "" if value is None else str(value)
    text = _CONTROL.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
    return html.escape(text, quote=True)


def _badge(word: object) -> str:
    word_text = str(word or "unknown")
    css = re.sub(r"[^a-z-]", "", word_text.lower())
    return f'<span class="badge b-{css}">{_e(word_text)}</span>'


def _link(url: object) -> str:
    text = str(url)
    if re.match(r"^https?://[^\s\"'<>]+$", text):
        return f'<a href="{_e(text)}" rel="noreferrer noopener">{_e(text)}</a>'
    return f"<code>{_e(text)}</code>"


def _page(title: str, subtitle: str, body: Iterable[str], version: object) -> str:
    return "".join(
        [
            '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
            f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n',
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
            '<meta name="referrer" content="no-referrer">\n',
            f"<title>{_e(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<main>\n",
            f'<header><h1>{_e(title)}</h1><p class="sub">{subtitle}</p></header>\n',
            *body,
            f"<footer>Made by compat {_e(version)}. This page loads nothing and runs no "
            "script.</footer>\n</main>\n</body>\n</html>\n",
        ]
    )


def _list(items: Sequence[object], *, code: bool = False) -> str:
    if not items:
        return '<span class="note">none</span>'
    wrap = (lambda v: f"<code>{_e(v)}</code>") if code else _e
    return "<ul>" + "".join(f"<li>{wrap(item)}</li>" for item in items) + "</ul>"


def _cards(items: Sequence[tuple[str, object]]) -> str:
    cells = "".join(f"<li><strong>{_e(value)}</strong>{_e(name)}</li>" for name, value in items)
    return f'<ul class="summary-cards" aria-label="Summary">{cells}</ul>\n'


def _dl(rows: Sequence[tuple[str, str]]) -> str:
    return "<dl>" + "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in rows) + "</dl>"


def _fix_rows(fix: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    fix = fix or {}
    rows = [("Fix", _e(fix.get("summary") or "none given"))]
    if fix.get("change"):
        rows.append(("Change", f"<code>{_e(fix['change'])}</code>"))
    rows.append(("Constraints", _list(list(fix.get("constraints") or []), code=True)))
    return rows


def _packages(packages: Sequence[Any]) -> str:
    items = []
    for package in packages:
        if isinstance(package, Mapping):
            where = (
                f' <span class="note">({_e(package["source"])})</span>'
                if package.get("source")
                else ""
            )
            items.append(
                f"<li><code>{_e(package.get('name'))} {_e(package.get('version'))}</code>{where}</li>"
            )
        else:
            items.append(f"<li><code>{_e(package)}</code></li>")
    return "<ul>" + "".join(items) + "</ul>" if items else '<span class="note">none</span>'


def _unknowns(unknown: Sequence[Any]) -> str:
    items = []
    for item in unknown:
        if isinstance(item, Mapping):
            items.append(
                f"<li><code>{_e(item.get('fact'))}</code>: settle with "
                f"<code>{_e(item.get('settle_with'))}</code></li>"
            )
        else:
            items.append(f"<li>{_e(item)}</li>")
    return "<ul>" + "".join(items) + "</ul>" if items else '<span class="note">none</span>'


def _finding(finding: Mapping[str, Any], extra: Sequence[tuple[str, str]] = ()) -> str:
    status = str(finding.get("status") or "")
    rule = finding.get("rule")
    rows: list[tuple[str, str]] = [*extra]
    if "matched" in finding or "packages" in finding:
        rows.append(("Evidence", _list(list(finding.get("matched") or []))))
        rows.append(("Packages", _packages(list(finding.get("packages") or []))))
    if "unknown" in finding:
        rows.append(("Unknowns", _unknowns(list(finding.get("unknown") or []))))
    if "symptoms" in finding:
        rows.append(("Symptoms", _list(list(finding.get("symptoms") or []), code=True)))
    if finding.get("status") == "outside-range":  # not the cause: its fix would only mislead
        rows.append(
            (
                "Not the cause",
                "What the log shows is outside this rule: the same message may have another "
                "cause. Its fix is not shown.",
            )
        )
    else:
        rows += _fix_rows(finding.get("fix"))
    if finding.get("install"):
        rows.append(("Install", f"<code>{_e(finding['install'])}</code>"))
    rows.append(("References", _reference_list(finding.get("references") or [])))
    if finding.get("source"):
        rows.append(("Rule source", f"<code>{_e(finding['source'])}</code>"))
    return (
        f'<article class="finding {_e(status)}" id="rule-{_e(rule)}" data-rule="{_e(rule)}">'
        f"<h4><code>{_e(rule)}</code></h4>"
        f"<p>{_badge(status)}{_badge(finding.get('severity'))}{_badge(finding.get('evidence'))}"
        f"{_e(finding.get('title'))}</p>{_dl(rows)}</article>\n"
    )


def _reference_list(references: Sequence[Any]) -> str:
    if not references:
        return '<span class="note">none</span>'
    return "<ul>" + "".join(f"<li>{_link(r)}</li>" for r in references) + "</ul>"


def _grouped_findings(findings: Sequence[Mapping[str, Any]], render: Any) -> list[str]:
    """Sections by status, then by severity (the order a person fixes them in)."""
    out: list[str] = []
    statuses = [
        *_STATUS_ORDER,
        *sorted({str(f.get("status")) for f in findings} - set(_STATUS_ORDER)),
    ]
    for status in statuses:
        of_status = [f for f in findings if str(f.get("status")) == status]
        if not of_status:
            continue
        out.append(
            f'<section aria-label="{_e(status)}"><h3>{_badge(status)}{_e(status.capitalize())}: {len(of_status)}</h3>\n'
        )
        severities = [
            *_SEVERITY_ORDER,
            *sorted({str(f.get("severity")) for f in of_status} - set(_SEVERITY_ORDER)),
        ]
        for severity in severities:
            group = [f for f in of_status if str(f.get("severity")) == severity]
            if group:
                out.append(f"<h4>Severity {_e(severity)} ({len(group)})</h4>\n")
                out += [render(f) for f in group]
        out.append("</section>\n")
    return out


def _kv_table(caption: str, mapping: Mapping[str, Any]) -> str:
    rows = "".join(
        f'<tr><th scope="row">{_e(key)}</th><td>{_value(value)}</td></tr>'
        for key, value in mapping.items()
    )
    if not rows:
        return ""
    return f'<table><caption class="note">{_e(caption)}</caption><tbody>{rows}</tbody></table>\n'


def _value(value: Any) -> str:
    if value is None:
        return '<span class="note">none</span>'
    if isinstance(value, Mapping):
        if not value:
            return '<span class="note">none</span>'
        return (
            "<ul>"
            + "".join(f"<li><code>{_e(k)}</code>: {_value(v)}</li>" for k, v in value.items())
            + "</ul>"
        )
    if isinstance(value, list):
        if not value:
            return '<span class="note">none</span>'
        return "<ul>" + "".join(f"<li>{_value(v)}</li>" for v in value) + "</ul>"
    return f"<code>{_e(value)}</code>"


def _hardware(hardware: Mapping[str, Any] | None) -> str:
    if not isinstance(hardware, Mapping):
        return '<p class="note">Hardware not known (no GPU probed, no profile given).</p>\n'
    gpus = [g for g in hardware.get("gpus") or [] if isinstance(g, Mapping)]
    amd = [g for g in gpus if g.get("vendor") == "amd"]
    # An AMD machine's facts are its amdgpu driver, ROCm and targets: NVIDIA's driver and
    # compute capability columns are shown only where an NVIDIA GPU (or its driver) is there.
    nvidia = len(amd) < len(gpus) or hardware.get("driver_version") is not None or not gpus
    rows: dict[str, Any] = {}
    if nvidia:
        rows["driver version"] = hardware.get("driver_version")
        rows["CUDA the driver supports"] = hardware.get("cuda_driver_version")
    if amd or hardware.get("rocm_version") or hardware.get("amdgpu_driver_version"):
        rows["amdgpu driver version"] = hardware.get("amdgpu_driver_version")
        rows["ROCm (user space)"] = hardware.get("rocm_version")
        if hardware.get("hsa_override_gfx_version"):
            rows["HSA_OVERRIDE_GFX_VERSION"] = hardware.get("hsa_override_gfx_version")
    out = [_kv_table("Driver", rows)]
    if gpus:
        heading = (
            "GPU target"
            if not nvidia
            else "compute capability or target"
            if amd
            else "compute capability"
        )
        rows_html = "".join(
            f'<tr><td class="num">{_e(g.get("index"))}</td><td>{_e(g.get("name"))}</td>'
            f"<td>{_e(_architecture(g))}</td>"
            f'<td class="num">{_e(g.get("memory_total_mib") or "")}</td></tr>'
            for g in gpus
        )
        out.append(
            '<table><caption class="note">GPUs</caption><thead><tr><th scope="col" class="num">index</th>'
            f'<th scope="col">name</th><th scope="col">{_e(heading)}</th>'
            f'<th scope="col" class="num">memory (MiB)</th></tr></thead><tbody>{rows_html}</tbody></table>\n'
        )
    else:
        out.append('<p class="note">No GPU.</p>\n')
    return "".join(out)


def _architecture(gpu: Mapping[str, Any]) -> str:
    """An NVIDIA GPU's compute capability; an AMD GPU's target ID (`gfx942:sramecc+`)."""
    if gpu.get("vendor") != "amd":
        capability = gpu.get("compute_capability")
        return "" if capability is None else str(capability)
    target = gpu.get("gfx_target")
    if not target:
        return "unknown"
    features = gpu.get("gfx_features")
    return f"{target}:{features}" if features else str(target)


def _facts(report: Mapping[str, Any]) -> list[str]:
    out = ['<h2 id="facts">Facts</h2>\n', "<h3>Environment</h3>\n"]
    environment = report.get("environment")
    out.append(
        _kv_table("Environment", environment)
        if isinstance(environment, Mapping)
        else '<p class="note">none</p>'
    )
    out += ["<h3>Hardware</h3>\n", _hardware(report.get("hardware"))]
    out.append("<h3>Configs and usage</h3>\n")
    usage = report.get("usage")
    out.append(
        _kv_table("Usage facts", usage)
        if isinstance(usage, Mapping) and usage
        else '<p class="note">No training config or usage facts given.</p>\n'
    )
    stack = report.get("stack")
    if isinstance(stack, Mapping):
        out.append("<h3>Stack</h3>\n")
        out.append(_kv_table("Packages", stack.get("packages") or {}))
        out.append(_kv_table("Builds", stack.get("builds") or {}))
        if stack.get("python"):
            out.append(f"<p>Python <code>{_e(stack['python'])}</code></p>\n")
    if isinstance(report.get("host"), Mapping):
        out += ["<h3>Host</h3>\n", _kv_table("Host", report["host"])]
    base = report.get("knowledge_base")
    if isinstance(base, Mapping):
        out += ["<h3>Knowledge base</h3>\n", _kv_table("Knowledge base", base)]
    return out


def _notes(notes: Sequence[Any]) -> list[str]:
    if not notes:
        return []
    return ['<h2 id="notes">Notes</h2>\n', _list(list(notes)), "\n"]


# ---------------------------------------------------------------------------------------------
# doctor and check: compat.report/1


def render_report(document: Mapping[str, Any], command: str = "report") -> str:
    findings = [f for f in document.get("findings") or [] if isinstance(f, Mapping)]
    summary = document.get("summary") or {}
    environment = document.get("environment") or {}
    source = environment.get("source") if isinstance(environment, Mapping) else None
    body = [
        _cards(
            [
                ("affected", summary.get("affected", 0)),
                ("possible", summary.get("possible", 0)),
                ("need hardware", summary.get("needs_hardware", 0)),
                ("findings", len(findings)),
            ]
        ),
        '<h2 id="findings">Findings</h2>\n',
    ]
    if findings:
        body += _grouped_findings(findings, _finding)
    else:
        body.append("<p>No known problem in this environment.</p>\n")
    needs = [f for f in document.get("needs_hardware") or [] if isinstance(f, Mapping)]
    if needs:
        body.append('<h2 id="needs-hardware">Possible, if the hardware were known</h2>\n')
        body += [_finding(f) for f in needs]
    body += _facts(document)
    body += _notes(list(document.get("notes") or []))
    subtitle = f"{_e(source)} · " if source else ""
    subtitle += f"{len(findings)} finding{'s' if len(findings) != 1 else ''}"
    return _page(f"compat {command}", subtitle, body, document.get("compat_version"))


# ---------------------------------------------------------------------------------------------
# explain: compat.explain/1


def _match(match: Mapping[str, Any]) -> str:
    rests = match.get("rests_on") or []
    rows = "".join(
        f'<tr><td class="num">{_e(r.get("line"))}</td><td>{_e(r.get("role"))}</td>'
        f"<td><code>{_e(r.get('text'))}</code></td></tr>"
        for r in rests
        if isinstance(r, Mapping)
    )
    evidence = (
        '<table><thead><tr><th scope="col" class="num">log line</th><th scope="col">role</th>'
        f'<th scope="col">text</th></tr></thead><tbody>{rows}</tbody></table>'
    )
    facts = [
        f"{f.get('fact')} = {f.get('value')}"
        + (f" (line {f.get('line')})" if f.get("line") is not None else "")
        for f in match.get("facts") or []
        if isinstance(f, Mapping)
    ]
    finding = {
        **match,
        "status": match.get("verdict"),
        "unknown": list(match.get("unknown") or []),
    }
    extra = [
        ("Log line", f"{_e(match.get('line'))}: <code>{_e(match.get('text'))}</code>"),
        ("Evidence", evidence),
        ("Facts used", _list(facts, code=True)),
        ("Held", _list(list(match.get("held") or []))),
    ]
    return _finding(finding, extra)


def render_explain(document: Mapping[str, Any]) -> str:
    matches = [m for m in document.get("matches") or [] if isinstance(m, Mapping)]
    causes = [m for m in matches if m.get("verdict") != "outside-range"]
    body = [
        _cards(
            [
                ("known causes", len(causes)),
                ("log lines", document.get("lines")),
                ("bytes", document.get("bytes")),
            ]
        ),
        f"<p>{_e(document.get('note'))}</p>\n",
        '<h2 id="findings">Causes</h2>\n',
    ]
    if matches:
        grouped = [{**m, "status": m.get("verdict")} for m in matches]
        order = ("confirmed", "symptom-only", "outside-range")
        for verdict in [*order, *sorted({str(m["status"]) for m in grouped} - set(order))]:
            of_verdict = [m for m in grouped if m["status"] == verdict]
            if not of_verdict:
                continue
            body.append(
                f"<section><h3>{_badge(verdict)}{_e(verdict.capitalize())}: {len(of_verdict)}</h3>\n"
            )
            for severity in _SEVERITY_ORDER:
                group = [m for m in of_verdict if m.get("severity") == severity]
                if group:
                    body.append(f"<h4>Severity {_e(severity)} ({len(group)})</h4>\n")
                    body += [_match(m) for m in group]
            body.append("</section>\n")
    else:
        body.append("<p>No known cause found in this log.</p>\n")
    facts = [f for f in document.get("facts") or [] if isinstance(f, Mapping)]
    body.append('<h2 id="facts">Facts</h2>\n')
    if facts:
        keys: list[str] = []
        for fact in facts:
            keys += [k for k in fact if k not in keys]
        head = "".join(f'<th scope="col">{_e(k)}</th>' for k in keys)
        rows = "".join(
            "<tr>" + "".join(f"<td>{_value(f.get(k))}</td>" for k in keys) + "</tr>" for f in facts
        )
        body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>\n")
    else:
        body.append('<p class="note">No facts read from the log or given.</p>\n')
    disagreements = [d for d in document.get("disagreements") or [] if isinstance(d, Mapping)]
    if disagreements:
        body.append("<h3>The log and the given facts disagree</h3>\n")
        body.append(
            _list(
                [
                    f"{d.get('fact')}: log {d.get('log')}, given {d.get('given')}"
                    for d in disagreements
                ]
            )
        )
    unrelated = [u for u in document.get("unrelated") or [] if isinstance(u, Mapping)]
    if unrelated:
        body.append('<h2 id="unrelated">Not a cause</h2>\n')
        rows = "".join(
            f'<tr><td><code>{_e(u.get("rule"))}</code></td><td class="num">{_e(u.get("line"))}</td>'
            f"<td>{_e(u.get('reason'))}</td></tr>"
            for u in unrelated
        )
        body.append(
            '<table><thead><tr><th scope="col">rule</th><th scope="col" class="num">line</th>'
            f'<th scope="col">why not</th></tr></thead><tbody>{rows}</tbody></table>\n'
        )
    subtitle = (
        f"{_e(document.get('log'))} · {len(causes)} known cause{'s' if len(causes) != 1 else ''}"
    )
    return _page("compat explain", subtitle, body, None)


# ---------------------------------------------------------------------------------------------
# fleet: compat.fleet/2


def _group_cell(group: Mapping[str, Any]) -> str:
    report = group.get("report")
    if group.get("status") != "ok" or not isinstance(report, Mapping):
        return _e(group.get("error"))
    summary = report.get("summary") or {}
    hardware = report.get("hardware")
    where = "hardware unknown"
    if isinstance(hardware, Mapping):
        gpus = [g for g in hardware.get("gpus") or [] if isinstance(g, Mapping)]
        models = sorted({str(g.get("name")) for g in gpus})
        where = (
            f"{len(gpus)}× {', '.join(models) or 'no GPU'}, driver {hardware.get('driver_version')}"
        )
    return (
        f"{_e(summary.get('affected', 0))} affected, {_e(summary.get('possible', 0))} possible"
        f'<br><span class="note">{_e(where)}</span>'
    )


def render_fleet(document: Mapping[str, Any]) -> str:
    groups = [g for g in document.get("groups") or [] if isinstance(g, Mapping)]
    summary = document.get("summary") or {}
    findings = [f for f in document.get("findings") or [] if isinstance(f, Mapping)]
    differing = [h for h in document.get("heterogeneity") or [] if isinstance(h, Mapping)]
    checked = int(summary.get("checked") or 0)
    body = [
        _cards(
            [
                ("nodes", summary.get("nodes", 0)),
                ("node groups", summary.get("groups", len(groups))),
                ("checked", checked),
                ("not checked", summary.get("unchecked", 0)),
                ("findings affected", summary.get("affected", 0)),
                ("facts that differ", summary.get("heterogeneous", 0)),
            ]
        ),
        '<h2 id="groups">Node groups</h2>\n',
        "<p>Nodes whose reports are identical apart from the host form one group.</p>\n",
    ]
    rows = "".join(
        f'<tr id="group-{_e(g.get("group"))}"><th scope="row" class="num">{_e(g.get("group"))}</th>'
        f'<td class="num">{_e(g.get("count"))}</td><td>{_badge(g.get("status"))}</td>'
        f'<td class="names"><span class="hostlist">{_e(g.get("nodes"))}</span></td>'
        f'<td class="report">{_group_cell(g)}</td></tr>'
        for g in groups
    )
    body.append(
        '<table><thead><tr><th scope="col" class="num">group</th><th scope="col" class="num">nodes</th>'
        '<th scope="col">status</th><th scope="col">names</th><th scope="col">report</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>\n"
    )
    body.append('<h2 id="differs">Facts that differ across nodes</h2>\n')
    if differing:
        body += _differing(differing, groups)
    else:
        body.append("<p>The compared facts agree on every checked node.</p>\n")
    body.append('<h2 id="findings">Findings</h2>\n')
    if findings:
        rows = "".join(
            f'<tr><th scope="row"><a href="#rule-{_e(f.get("rule"))}"><code>{_e(f.get("rule"))}</code></a></th>'
            f"<td>{_badge(f.get('status'))}</td><td>{_badge(f.get('severity'))}</td>"
            f'<td class="num" data-count="{_e(f.get("count"))}">{_e(f.get("count"))} of {checked}</td>'
            f"<td>{_e(', '.join(str(g.get('group')) for g in f.get('groups') or []))}</td></tr>"
            for f in findings
        )
        body.append(
            '<table><caption class="note">Per finding: on how many nodes it holds</caption><thead><tr>'
            '<th scope="col">rule</th><th scope="col">status</th><th scope="col">severity</th>'
            '<th scope="col" class="num">nodes</th><th scope="col">groups</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>\n"
        )
        body += _grouped_findings(findings, _fleet_finding)
    else:
        body.append("<p>No findings on any checked node.</p>\n")
    ok = [g for g in groups if g.get("status") == "ok" and isinstance(g.get("report"), Mapping)]
    if ok:
        body.append('<h2 id="group-facts">Facts per group</h2>\n')
        for group in ok:
            body.append(
                f"<details><summary>Group {_e(group.get('group'))}: {_e(group.get('count'))} nodes</summary>\n"
            )
            body += [
                part.replace('<h2 id="facts">Facts</h2>\n', "") for part in _facts(group["report"])
            ]
            body.append("</details>\n")
    body += _notes(list(document.get("notes") or []))
    subtitle = (
        f"{_e(document.get('source'))} · {_e(summary.get('nodes', 0))} nodes in "
        f"{_e(summary.get('groups', len(groups)))} groups"
    )
    return _page("compat fleet", subtitle, body, document.get("compat_version"))


_GROUP_COLUMNS = 8  # checked groups shown as columns of the differing-facts table


def _differing(
    differing: Sequence[Mapping[str, Any]], groups: Sequence[Mapping[str, Any]]
) -> list[str]:
    """A table: one row per fact, one column per checked group, the value in each cell."""
    checked = [g for g in groups if g.get("status") == "ok"]
    if len(checked) > _GROUP_COLUMNS:  # too wide as a table: each value with its nodes
        return _differing_lists(differing)
    head = "".join(
        f'<th scope="col">group {_e(g.get("group"))}<br><span class="note">{_e(g.get("count"))} nodes</span></th>'
        for g in checked
    )
    rows = []
    for fact in differing:
        by_group: dict[object, str] = {}
        for value in fact.get("values") or []:
            if isinstance(value, Mapping):
                for number in value.get("groups") or []:
                    by_group[number] = str(value.get("value"))
        cells = "".join(
            f'<td class="value"><code>{_e(by_group.get(g.get("group"), ""))}</code></td>'
            for g in checked
        )
        rows.append(
            f'<tr><th scope="row">{_e(fact.get("title"))}<br>{_badge(fact.get("severity"))}</th>{cells}'
            f"<td>{_e(fact.get('why'))}</td></tr>"
        )
    return [
        '<table><thead><tr><th scope="col">fact</th>'
        f'{head}<th scope="col">why it must agree</th></tr></thead><tbody>{"".join(rows)}</tbody></table>\n'
    ]


def _group_links(numbers: Sequence[Any]) -> str:
    links = ", ".join(f'<a href="#group-{_e(n)}">{_e(n)}</a>' for n in numbers)
    return ("group " if len(numbers) == 1 else "groups ") + links


def _differing_lists(differing: Sequence[Mapping[str, Any]]) -> list[str]:
    out = []
    for fact in differing:
        items = [
            f"<li><code>{_e(v.get('value'))}</code> on {_e(v.get('count'))} node{'s' if v.get('count') != 1 else ''}: "
            f"{_group_links(v.get('groups') or [])}</li>"
            for v in fact.get("values") or []
            if isinstance(v, Mapping)
        ]
        out.append(f"<h3>{_e(fact.get('title'))}</h3><ul>{''.join(items)}</ul>\n")
    return out


def _fleet_finding(finding: Mapping[str, Any]) -> str:
    groups = [g for g in finding.get("groups") or [] if isinstance(g, Mapping)]
    rows = "".join(
        f'<tr><td class="num"><a href="#group-{_e(g.get("group"))}">{_e(g.get("group"))}</a></td>'
        f'<td class="num">{_e(g.get("count"))}</td><td>{_badge(g.get("status"))}</td>'
        f"<td>{_list(list(g.get('matched') or []))}{_packages(list(g.get('packages') or []))}</td>"
        f"<td>{_unknowns(list(g.get('unknown') or []))}</td></tr>"
        for g in groups
    )
    where = (
        f"{_e(finding.get('count'))} nodes"
        '<table><thead><tr><th scope="col" class="num">group</th><th scope="col" class="num">nodes</th>'
        '<th scope="col">status</th><th scope="col">evidence (matched facts, packages)</th>'
        '<th scope="col">unknowns</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )
    return _finding(finding, [("Nodes", where)])


def render(report: Any, colour: bool = False) -> str:
    """The formatter for doctor and check (compat.formats.formatter)."""
    from compat.formats.json import report_document

    document = report_document(report)
    command = "doctor" if document.get("host") is not None else "check"
    return render_report(document, command)
