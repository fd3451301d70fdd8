"""One exception hierarchy. Each error carries its user message, an optional hint and its exit code.

Only `cli.py` turns these into output and exit codes. Messages are one line, naming the file,
line and problem: `compat: error: <what>: <why>` and, optionally, `hint: <next step>`.
"""

from __future__ import annotations

from compat.model import Origin

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2  # usage error or unreadable/invalid input
EXIT_UNCHECKED = 3  # the check could not be made (no distributions, no knowledge base)
EXIT_INTERNAL = 70  # EX_SOFTWARE: a crash is never read as a verdict


class CompatError(Exception):
    """Base of every error compat reports to the user on purpose."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, origin: Origin | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.origin = origin
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.origin}: {self.message}" if self.origin else self.message


class UsageError(CompatError):
    """A bad flag value (`--set garbage`, a nonexistent `--path`)."""


class InputError(CompatError):
    """A file the user gave us is unreadable or invalid (config, requirements, profile)."""


class KnowledgeBaseError(CompatError):
    """A rule file is malformed or violates the schema."""


class IndexAccessError(CompatError):
    """The package index could not be reached or answered nonsense."""

    def __init__(self, message: str, *, origin: Origin | None = None, hint: str | None = None):
        super().__init__(
            message, origin=origin, hint=hint or "use --offline to work from the cache"
        )


class UncheckedError(CompatError):
    """Nothing could be checked: no distributions found, no knowledge base."""

    exit_code = EXIT_UNCHECKED
