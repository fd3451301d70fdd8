"""One config: every option of `check` and `doctor` from `[tool.compat]` or `.compat.toml`.

A key is an option's long spelling without its dashes (`fail-on = "possible"`,
`python-version = "3.11"`, `matrix = ["rules/"]`, `offline = true`). `[tool.compat]` of
pyproject.toml and the top level of `.compat.toml` (both in the current directory; the second
wins a key both set) apply to every command that has the option; `[tool.compat.check]` and
`[tool.compat.doctor]` (`[check]`, `[doctor]` in .compat.toml) to one command only. One key
stays check's alone at the top: `hardware` names the training machine a CI gate judges for, and
doctor probes the machine it runs on unless `[tool.compat.doctor] hardware` says otherwise.
`ignore` is the waivers' (compat.commands.waivers).

The values become click's `default_map`, so the command line beats a COMPAT_* variable and both
beat the file, and a value is converted and checked by the option itself. Before that, a key no
configured command has or a value of the wrong type is one line and exit 2, naming the key, the
file and the line (tomllib keeps no positions: `key_line` finds them in the text).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compat.errors import InputError
from compat.model import Origin

# The commands the file configures, and every key each takes. Kept equal to the commands' own
# options by tests/cli/test_config.py: a new option of check or doctor fails that test until it
# is listed here (so a key of the other command is known without importing it at start-up).
KEYS: Mapping[str, frozenset[str]] = {
    "check": frozenset(
        [
            "hardware",
            "no-probe",
            "probe",
            "deepspeed-config",
            "accelerate-config",
            "set",
            "matrix",
            "python-version",
            "platform",
            "pixi-environment",
            "index-url",
            "extra-index-url",
            "offline",
            "resolver",
            "resolver-timeout",
            "exclude-newer",
            "knowledge-version",
            "timeout",
            "format",
            "output",
            "report",
            "fail-on",
            "baseline",
            "baseline-ref",
            "select",
            "ignore",  # [tool.compat.check] only: at the top, `ignore` is the waivers'
            "together",
            "pre-commit",
            "step-summary",
            "quiet",
            "verbose",
            "no-color",
            "debug",
        ]
    ),
    "doctor": frozenset(
        [
            "python",
            "path",
            "conda-prefix",
            "hardware",
            "no-probe",
            "deepspeed-config",
            "accelerate-config",
            "set",
            "matrix",
            "format",
            "output",
            "report",
            "fail-on",
            "quiet",
            "verbose",
            "no-color",
            "debug",
            "install",
            "resolver",
        ]
    ),
}
CONFIGURED = frozenset(KEYS)
NOT_OPTIONS = frozenset({"ignore"})  # the waivers: compat.commands.waivers reads them
CHECK_ONLY_AT_TOP = frozenset({"hardware"})
FILES = (("pyproject.toml", ("tool", "compat")), (".compat.toml", ()))


@dataclass(frozen=True)
class Setting:
    key: str
    value: Any
    origin: Origin
    table: str  # "[tool.compat]", "[tool.compat.check]", ".compat.toml", "[check]"


def option_key(opts: Sequence[str]) -> str:
    """`["--fail-on"]` -> `fail-on`: the longest spelling without its dashes."""
    return max(opts, key=len).lstrip("-")


def file_defaults(command: str, params: Iterable[Any], directory: Path) -> dict[str, Any]:
    """click's default_map for `command` (its params) from the config files in `directory`."""
    by_key = {option_key(p.opts): p for p in params if _is_option(p)}
    defaults: dict[str, Any] = {}
    for setting in read_settings(command, directory):
        param = by_key.get(setting.key)
        if param is None:  # another command's key: known (read_settings checked), not ours
            continue
        defaults[param.name] = _checked(param, setting, command)
    return defaults


def _is_option(param: Any) -> bool:
    return bool(getattr(param, "opts", None)) and type(param).__name__ != "TyperArgument"


def read_settings(command: str, directory: Path) -> list[Setting]:
    """The settings for `command` in file order (a later one wins), each key checked known."""
    settings: list[Setting] = []
    for name, table_path in FILES:
        path = directory / name
        if not path.is_file():
            continue
        from compat.files.readers import parse_toml, read_text

        text = read_text(path, "config")
        if table_path and "compat" not in text:
            continue  # a pyproject.toml without [tool.compat]: no TOML parse at start-up
        document = parse_toml(text, path)
        lines = text.splitlines()
        table: Any = document
        for part in table_path:
            table = table.get(part) if isinstance(table, dict) else None
        if table is None:
            continue
        label = f"[{'.'.join(table_path)}]" if table_path else name
        if not isinstance(table, dict):
            raise InputError(
                f"{label} must be a table", origin=Origin(str(path), key_line(lines, (), "tool"))
            )
        settings += _table_settings(command, table, table_path, path, lines, label)
    return settings


def _table_settings(
    command: str,
    table: Mapping[str, Any],
    table_path: tuple[str, ...],
    path: Path,
    lines: Sequence[str],
    label: str,
) -> list[Setting]:
    everywhere = frozenset().union(*KEYS.values())
    top: list[Setting] = []
    own: list[Setting] = []
    for key, value in table.items():
        origin = Origin(str(path), key_line(lines, table_path, key))
        if key in CONFIGURED and isinstance(value, dict):
            sub = (*table_path, key)
            sub_label = f"[{'.'.join(sub)}]"
            for sub_key, sub_value in value.items():
                sub_origin = Origin(str(path), key_line(lines, sub, sub_key))
                if sub_key not in KEYS[key]:
                    raise InputError(
                        f"{sub_label} {sub_key}: {_unknown(sub_key, KEYS[key], key)}",
                        origin=sub_origin,
                    )
                if key == command:
                    own.append(Setting(sub_key, sub_value, sub_origin, sub_label))
            continue
        if key in NOT_OPTIONS:
            continue
        if key not in everywhere:
            raise InputError(
                f"{label} {key}: {_unknown(key, everywhere | NOT_OPTIONS, 'check or doctor')}",
                origin=origin,
            )
        if key in CHECK_ONLY_AT_TOP and command != "check":
            continue
        if key in KEYS[command]:
            top.append(Setting(key, value, origin, label))
    return top + own  # a command's own table wins over the shared keys


def _unknown(key: str, known: Iterable[str], whose: str) -> str:
    import difflib

    close = difflib.get_close_matches(key.replace("_", "-"), sorted(known), n=1)
    guess = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown key: no option --{key} of {whose}{guess}"


def _checked(param: Any, setting: Setting, command: str) -> Any:
    """The value as click's default_map takes it, or InputError naming the key and the line."""
    value = setting.value
    where = f"{setting.table} {setting.key}"
    if getattr(param, "is_flag", False):
        if not isinstance(value, bool):
            raise InputError(
                f"{where}: expected true or false, got {value!r}", origin=setting.origin
            )
        return value
    if getattr(param, "multiple", False):
        if not isinstance(value, list):
            raise InputError(
                f"{where}: expected an array ({setting.key} = [...]), got {value!r}",
                origin=setting.origin,
            )
        return [_scalar(param, item, setting, where, command) for item in value]
    return _scalar(param, value, setting, where, command)


def _scalar(param: Any, value: Any, setting: Setting, where: str, command: str) -> Any:
    kind = getattr(param.type, "name", "text")
    if kind in ("float", "float range", "integer", "integer range"):
        wanted = (int, float) if kind.startswith("float") else (int,)
        if isinstance(value, bool) or not isinstance(value, wanted):
            raise InputError(f"{where}: expected a number, got {value!r}", origin=setting.origin)
        return value
    if not isinstance(value, str):
        raise InputError(f"{where}: expected a string, got {value!r}", origin=setting.origin)
    choices = getattr(param.type, "choices", None)
    if choices is not None and value.lower() not in {str(c).lower() for c in choices}:
        listed = ", ".join(str(c) for c in choices)
        other = _other(command)
        sub = {"[tool.compat]": f"[tool.compat.{other}]", ".compat.toml": f"[{other}]"}
        hint = (
            f" (set it under {sub[setting.table]} for {other} only)" if setting.table in sub else ""
        )
        raise InputError(
            f"{where}: {value!r} is not one of {command}'s: {listed}{hint}", origin=setting.origin
        )
    return value


def _other(command: str) -> str:
    return next((name for name in sorted(CONFIGURED) if name != command), command)


# ---------------------------------------------------------------------------------------------
# Where a key is: tomllib keeps no positions


_HEADER = re.compile(r"^\s*\[(?!\[)([^\]]*)\]")
_ARRAY_HEADER = re.compile(r"^\s*\[\[")


def _header(match: re.Match[str]) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in match.group(1).split("."))


def key_line(lines: Sequence[str], table: tuple[str, ...], key: str) -> int | None:
    """The 1-based line that sets `key` in `table` (a header's parts; () the top level), else
    the line of the table's header, else any line that sets `key` (a dotted or inline key)."""
    quoted = re.escape(key)
    assigns = re.compile(rf"^\s*(?:{quoted}|\"{quoted}\"|'{quoted}')\s*=")
    anywhere = re.compile(rf"(?:^|[\s.{{,])(?:{quoted}|\"{quoted}\"|'{quoted}')\s*=")
    current: tuple[str, ...] | None = ()
    header_at: int | None = None
    for number, line in enumerate(lines, start=1):
        header = _HEADER.match(line)
        if header:
            current = _header(header)
            if current == table and header_at is None:
                header_at = number
            elif current == (*table, key):
                return number  # `[tool.compat.check]`: the sub-table's own header
            continue
        if _ARRAY_HEADER.match(line):
            current = None
            continue
        if current == table and assigns.match(line):
            return number
    if header_at is not None:
        return header_at
    return next((n for n, line in enumerate(lines, start=1) if anywhere.search(line)), None)
