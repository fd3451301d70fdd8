"""Options from the environment: the `COMPAT_<OPTION>` names, derived from the option spellings.

One rule for every command, so that options added later get their variable without anyone
writing its name: `--fail-on` of `compat doctor` reads `COMPAT_DOCTOR_FAIL_ON`, then
`COMPAT_FAIL_ON` (the command's own variable wins, so one shell can set a default for every
command and override it for one). The command line beats both. Stdlib only: the fleet's node
task (compat/fleet/node.py) uses the same names on nodes where typer is not installed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

PREFIX = "COMPAT"

# Eager root options that act instead of the command, not settings of it; and check's --fix and
# --diff, acts on the user's files that a variable shared by a CI job (COMPAT_FIX=1) must never
# switch on for every check in it (nor a config file: cli/config.KEYS leaves them out).
NOT_FROM_ENVIRONMENT = frozenset({"--help", "-h", "--version", "--fix", "--diff"})

_TRUE = frozenset({"1", "true", "t", "yes", "y", "on"})
_FALSE = frozenset({"0", "false", "f", "no", "n", "off"})


def _upper(text: str) -> str:
    return text.strip("-").replace("-", "_").replace(" ", "_").upper()


def variable_names(command_path: Sequence[str], option: str) -> list[str]:
    """`("doctor",), "--fail-on"` -> `["COMPAT_DOCTOR_FAIL_ON", "COMPAT_FAIL_ON"]`."""
    tail = _upper(option)
    names = [f"{PREFIX}_{tail}"]
    if command_path:
        names.insert(0, f"{PREFIX}_{'_'.join(_upper(part) for part in command_path)}_{tail}")
    return names


def lookup(
    command_path: Sequence[str], option: str, environ: Mapping[str, str] | None = None
) -> tuple[str, str] | None:
    """(variable, value) of the first variable set (an empty value counts as unset), else None."""
    env = os.environ if environ is None else environ
    for name in variable_names(command_path, option):
        value = env.get(name)
        if value:
            return name, value
    return None


def parse_flag(variable: str, value: str) -> bool:
    """A boolean flag's value, as click reads it; ValueError names the variable."""
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(f"${variable}={value!r} is not a boolean (1/0, true/false, yes/no, on/off)")
