"""Which releases of a package the target can install (issue 44 item 4), read from compat's
dependency snapshot: a release whose Requires-Python excludes the target's Python, or (on Linux
x86-64, the platform the snapshot records files for) that has neither a wheel for it nor an sdist,
is one no resolve picks there. A question that only such releases make true is not asked.

Every answer is True, False, or None where the snapshot cannot say; only False excludes. A release
published after the snapshot is taken to keep the newest recorded release's Requires-Python floor
(a project that dropped a Python does not take it back: the convention
compat.resolve.check.transitive uses for a later release's requirements), and nothing else is
assumed of it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import NormalizedName
from packaging.version import Version

from compat.resolve.sources import snapshot

# The platform whose files the snapshot records (its `wheels` and `sdist`).
RECORDED_PLATFORM = "linux/x86_64"


@dataclass(frozen=True)
class TargetInstalls:
    """The target's CPython (major.minor counts) and platform (`linux/x86_64`)."""

    python: Version
    platform: str

    @property
    def label(self) -> str:
        return f"Python {self.python.major}.{self.python.minor} on {self.platform}"

    def release(self, name: NormalizedName, version: Version) -> bool | None:
        """Whether pip can install `name` `version` on the target (None: not known)."""
        records = snapshot.records(name)
        record = next((r for r in records if r.version == version), None)
        if record is not None:
            if record.yanked:
                return False  # pip picks a yanked release for no range
            if self.platform == RECORDED_PLATFORM:
                return record.installable(self.python)
            return False if _excludes(record.requires_python, self.python) else None
        if records and version > records[-1].version and self._later_excluded(records[-1]):
            return False
        return None

    def _later_excluded(self, newest: snapshot.Release) -> bool:
        """A release after the snapshot's newest: excluded where the newest's Requires-Python
        floor is above the target's Python."""
        return _below_floor(newest.requires_python, self.python)

    def possible(self, name: NormalizedName, spec: SpecifierSet) -> tuple[list[Version], str]:
        """The recorded releases `spec` allows that may install on the target (True or None),
        oldest first, and why a release the snapshot does not record may install too ("" when
        none can): its history is not complete, a published final it lists without files, or a
        release published after it."""
        kept, unlisted, reason = self.possible_parts(name, spec)
        if unlisted:
            shown = ", ".join(str(v) for v in unlisted[-3:])
            return kept, (
                f"releases compat's dependency snapshot lists without their files ({shown}"
                + (f" and {len(unlisted) - 3} more" if len(unlisted) > 3 else "")
                + ")"
            )
        return kept, reason

    def possible_parts(
        self, name: NormalizedName, spec: SpecifierSet
    ) -> tuple[list[Version], list[Version], str]:
        """`possible` in parts: the recorded releases that may install, the published finals
        `spec` allows that the snapshot lists without files (whether they install is not
        known), and why some other release may install ("": none can). A caller that knows
        something of the unlisted ones (their builds) can judge them instead of giving up."""
        records = snapshot.records(name)
        if not records or not snapshot.history_complete(name):
            return [], [], f"compat's dependency snapshot does not record every release of {name}"
        kept = [
            r.version
            for r in records
            if spec.contains(r.version) and self.release(name, r.version) is not False
        ]
        recorded = {r.version for r in records}
        unlisted = sorted(
            v
            for v in snapshot.published(name) - recorded
            if spec.contains(v) and not v.is_prerelease and not v.is_devrelease
        )
        if not self._later_excluded(records[-1]) and any(
            spec.contains(v) for v in _after(records[-1].version)
        ):
            return (
                kept,
                unlisted,
                f"releases published after compat's dependency snapshot of {snapshot.fetched()}",
            )
        return kept, unlisted, ""


def _after(newest: Version) -> Iterable[Version]:
    """Stand-ins for releases after `newest`: its next patch, minor and major, and a far one."""
    major, minor, micro = (*newest.release, 0, 0)[:3]
    return (
        Version(f"{major}.{minor}.{micro + 1}"),
        Version(f"{major}.{minor + 1}.0"),
        Version(f"{major + 1}.0.0"),
        Version("9999"),
    )


def _excludes(requires_python: str | None, python: Version) -> bool:
    if not requires_python:
        return False
    try:
        return not SpecifierSet(requires_python).contains(python, prereleases=True)
    except InvalidSpecifier:
        return False  # pip ignores an unparsable Requires-Python too


def _below_floor(requires_python: str | None, python: Version) -> bool:
    """Whether a lower bound of `requires_python` (>=, >) excludes `python`."""
    if not requires_python:
        return False
    try:
        spec = SpecifierSet(requires_python)
    except InvalidSpecifier:
        return False
    return any(s.operator in (">=", ">") and not s.contains(python, prereleases=True) for s in spec)
