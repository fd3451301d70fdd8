"""The domain model: immutable values that flow one way, facts -> engine -> findings.

Small records are NamedTuples and the larger aggregates frozen dataclasses: a frozen dataclass
costs about 0.6 ms to define at import and `compat doctor` runs before every training job.

Versions are `packaging` objects, never strings, and every package map is keyed by the PEP 503
normalized name. A fact remembers where it came from (`Origin`), so every finding can point at
the file and line (or the dist-info directory) that caused it.
"""

from __future__ import annotations

import enum
import inspect  # imported by dataclasses anyway
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from typing import TYPE_CHECKING, NamedTuple


class Origin(NamedTuple):
    """Where a fact came from: a file (and line, when it has lines) or a description."""

    path: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path


# ---------------------------------------------------------------------------------------------
# Packages


class Package(NamedTuple):
    """One installed (or pinned, or locked) distribution."""

    name: NormalizedName
    version: Version
    display_name: str = ""  # the spelling in its metadata, for messages
    origin: Origin | None = None  # dist-info directory, or file:line of a pin
    commit: str | None = None  # VCS commit from direct_url.json, when installed from git
    requires: tuple[str, ...] = ()  # raw Requires-Dist lines, in file order
    source: str | None = None  # how it was built from source (direct_url.json), if it was

    @property
    def label(self) -> str:
        return self.display_name or self.name


class PackageFact(NamedTuple):
    """What is known about one package name when rules are evaluated.

    `versions` are the candidate versions: exactly one for an installed or pinned package; for a
    ranged requirement (`trl>=0.14`) the released versions the range allows. A condition is then
    true when every candidate matches, false when none does, unknown when some do.
    """

    name: NormalizedName
    versions: tuple[Version, ...]
    display_name: str = ""
    origin: Origin | None = None
    commit: str | None = None
    requirement: str | None = None  # the requirement text, when the fact came from one
    candidates_from: str | None = None  # "index" / "knowledge-base" for ranged requirements
    # Built from source: how we know (direct_url.json); None = judge by the version label;
    # "" = read it as the release its version names (compat/kb/sourcebuild.py)
    source: str | None = None

    @property
    def exact(self) -> bool:
        return len(self.versions) == 1

    @property
    def installed(self) -> bool:
        """Read from an installed distribution (its dist-info, egg-info or conda record), not
        declared in a file."""
        path = self.origin.path if self.origin is not None else ""
        return any(part in path for part in (".dist-info", ".egg-info", "conda-meta"))

    @property
    def label(self) -> str:
        return self.display_name or self.name


class EnvironmentProblem(NamedTuple):
    """A distribution that could not be read, or a name installed twice. Data, not an exception."""

    kind: str  # "broken-metadata", "invalid-version", "duplicate"
    message: str
    origin: Origin | None = None
    name: NormalizedName | None = None


@dataclass(frozen=True)
class Environment:
    """The distributions of one environment, read without importing any of them."""

    source: str  # e.g. "python /usr/bin/python3" or "path /opt/venv/lib/python3.11/site-packages"
    packages: Mapping[NormalizedName, Package]
    python_version: Version | None = None
    markers: Mapping[str, str] = field(
        default_factory=dict
    )  # PEP 508 marker environment, complete when known
    problems: tuple[EnvironmentProblem, ...] = ()
    paths: tuple[str, ...] = ()  # the directories that were scanned
    prefix: str | None = None  # the interpreter's sys.prefix, where a conda-meta/ may live
    # Build facts the package manager recorded (a conda torch's CUDA build, conda's cuDNN/NCCL):
    # they override what the wheels' metadata would suggest (compat.facts.conda).
    builds: Mapping[str, Version] = field(default_factory=dict)
    # Whose build a package is where that changes what it carries: {"torch": "conda-forge"} for
    # conda-forge's pytorch (its own TORCH_CUDA_ARCH_LIST, compat/data/conda-forge-torch-arch.json).
    build_channels: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Hardware


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    uuid: str | None = None
    pci_bus_id: str | None = None
    compute_capability: Version | None = None  # Version("8.0"): specifiers compare it naturally
    memory_total_mib: int | None = None
    mig: bool | None = None
    # "nvidia" | "amd"; None: not stated (a profile of before AMD GPUs were read: NVIDIA's)
    vendor: str | None = None
    # An AMD GPU's target ("gfx942") and its target features where known ("sramecc+:xnack-"):
    # what decides which HIP code objects it runs (compat.kb.hiptargets).
    gfx_target: str | None = None
    gfx_features: str | None = None

    @property
    def is_amd(self) -> bool:
        return self.vendor == "amd" or (self.vendor is None and self.gfx_target is not None)


@dataclass(frozen=True)
class UserModeDriver:
    """The CUDA user-mode driver (`libcuda.so.1`) a process started here loads where it is not
    the kernel driver's own: a `cuda-compat` (forward compatibility) libcuda found on the loader
    path, or one a hardware profile names (compat.probes.libcuda, docs/forward-compat.md)."""

    version: Version | None  # from its file name (libcuda.so.580.65.06); None: not readable
    text: str | None  # the version as the file name spells it ("580.65.06")
    path: str | None  # the file the loader opens (None: a profile's)
    found_by: str  # "LD_LIBRARY_PATH", "ld.so.cache FILE", "profile FILE"
    cuda: Version | None  # the CUDA version it carries (compat/data/forward-compat.json)
    # "active": the process gets `cuda`; "unsupported-gpu", "unsupported-branch", "unknown-gpu",
    # "unknown-version", "mismatch", "unknown-kernel": it gets nothing from it (see `note`).
    status: str
    note: str | None = None


@dataclass(frozen=True)
class Hardware:
    """The machine as training will see it. `None` in Facts means "not probed" (unknown)."""

    driver_version: Version | None
    cuda_driver_version: Version | None  # the newest CUDA the driver supports ("12.2")
    gpus: tuple[Gpu, ...]
    source: str = ""  # "nvml", "profile FILE", ...
    problems: tuple[str, ...] = ()  # why a fact is missing ("NVML library not found", ...)
    extra: Mapping[str, object] = field(default_factory=dict)  # p2p, /dev/shm, ... (profile only)
    driver_text: str | None = (
        None  # as the driver spells it: Version("580.159.04") prints 580.159.4
    )
    # The machine's OS and architecture in `--platform`'s words ("linux/aarch64"): probe reads
    # sys.platform and platform.machine(); a profile may state it (compat.probes.profile).
    platform: str | None = None
    # A cuda-compat libcuda a process would load instead of the kernel driver's (None: none found).
    user_driver: UserModeDriver | None = None
    # AMD: the ROCm user space a process finds ("6.4.1"), the amdgpu kernel driver's version,
    # and HSA_OVERRIDE_GFX_VERSION as set ("11.0.0"): the target the runtime then reports.
    rocm_version: str | None = None
    amdgpu_driver_version: str | None = None
    gfx_override: str | None = None

    @property
    def forward_compatible(self) -> bool:
        """A process gets the CUDA version of a cuda-compat libcuda, not the kernel driver's."""
        return self.user_driver is not None and self.user_driver.status == "active"

    @property
    def process_driver_version(self) -> Version | None:
        """The driver version a CUDA process runs on: the cuda-compat libcuda's where forward
        compatibility is in effect, else the kernel driver's. Driver-floor rules read this."""
        if self.forward_compatible and self.user_driver is not None:
            return self.user_driver.version
        return self.driver_version

    @property
    def process_cuda_version(self) -> Version | None:
        """The newest CUDA a process started here can use: the cuda-compat libcuda's where
        forward compatibility is in effect, else the kernel driver's (`cuda_driver_version`)."""
        if self.forward_compatible and self.user_driver is not None:
            return self.user_driver.cuda
        return self.cuda_driver_version

    @property
    def partial(self) -> bool:
        """The GPUs are those a log's messages named, not the machine's list: at least that many,
        the count unknown (compat.facts.logfacts sets `extra["gpu_list"] = "partial"`)."""
        return self.extra.get("gpu_list") == "partial"

    @property
    def driver_label(self) -> str | None:
        if self.driver_text:
            return self.driver_text
        return str(self.driver_version) if self.driver_version is not None else None


# ---------------------------------------------------------------------------------------------
# Usage facts (what no environment shows: trainer, ZeRO stage, offload device, ...)

UsageValue = str | int | float | bool


class UsageFact(NamedTuple):
    key: str
    value: UsageValue
    origin: Origin
    note: str | None = None  # e.g. '"auto": HF Trainer fills max_grad_norm (default 1.0)'


# ---------------------------------------------------------------------------------------------
# Everything the engine evaluates rules against


@dataclass(frozen=True)
class Facts:
    packages: Mapping[NormalizedName, PackageFact]
    python_version: Version | None = None
    markers: Mapping[str, str] | None = None  # complete PEP 508 environment, None when unknown
    hardware: Hardware | None = None  # None: unknown (not probed)
    builds: Mapping[str, Version] = field(default_factory=dict)  # torch_cuda, nccl, cudnn, ...
    usage: Mapping[str, UsageFact] = field(default_factory=dict)
    packages_known: bool = True  # False: no package facts at all (a check over hardware only)
    # Builds that exist but are not known (an unpinned torch offline: its release, hence its CUDA
    # build, is what a resolve picks) -> what would settle each one.
    unknown_builds: Mapping[str, str] = field(default_factory=dict)
    # For an unknown build, every value it can take on the target (None: a CPU build): the
    # builds of the releases the target can install (compat.resolve.sources.installable). A
    # condition no candidate meets is false, not a question.
    build_candidates: Mapping[str, frozenset[Version | None]] = field(default_factory=dict)
    # The GPU architectures a build carries as its own message lists them (a log: torch's
    # "supports CUDA capabilities sm_50 ... sm_90" -> {"torch": ("sm_50", ..., "sm_90")}).
    arch_lists: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Packages conda installs (a conda or pixi file's specs): conda's builds, not PyPI's wheels.
    conda_packages: frozenset[NormalizedName] = frozenset()
    # Whose build a package is ({"torch": "conda-forge"}), where that changes what it carries.
    build_channels: Mapping[str, str] = field(default_factory=dict)
    # What check took from the machine it runs on rather than from the user ("python",
    # "platform"): a verdict that turns on it is a question, not a finding.
    target_assumed: frozenset[str] = frozenset()
    # Requirements a release's own check states in a log ("requires accelerate>=0.26.0"):
    # package -> the specifier the check failed on (compat.facts.shapes).
    requirements: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Rules and findings


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Evidence(str, enum.Enum):
    VERIFIED = "verified"
    REPORTED = "reported"
    OBSERVED = "observed"  # read from the installed files themselves (compat/kb/binarycheck.py)


class Status(str, enum.Enum):
    AFFECTED = "affected"
    POSSIBLE = "possible"


class Symptom(NamedTuple):
    match: str  # a regular expression over log text
    frames: tuple[str, ...] = ()  # "file.py:function" frames that identify the code path


class Fix(NamedTuple):
    summary: str
    constraints: tuple[str, ...] = ()  # PEP 508 strings that, together, leave the rule
    change: str | None = None  # config or code change where a pin cannot fix it


class MatchedPackage(NamedTuple):
    name: NormalizedName
    version: str  # the version found (installed, locked, pinned); a range for ranged facts
    origin: Origin | None = None


class Unknown(NamedTuple):
    """A condition that could not be decided, and what would settle it."""

    fact: str  # "usage.zero_stage", "hardware.gpu_count", "packages.trl"
    needs: str  # "--deepspeed-config FILE or --set zero_stage=N"


class Example(NamedTuple):
    """An environment written in a rule file, which the rule must (or must not) match."""

    expect: str  # "affected", "possible" or "clear"
    data: Mapping[str, object]
    origin: Origin


# ---------------------------------------------------------------------------------------------
# Conditions: the nodes a rule's `when:` compiles into (compat.kb.conditions), three-valued


class Tri(enum.Enum):
    FALSE = 0
    UNKNOWN = 1
    TRUE = 2


class Verdict(NamedTuple):
    value: Tri
    held: tuple[str, ...] = ()
    unknown: tuple[Unknown, ...] = ()
    packages: tuple[MatchedPackage, ...] = ()
    anchored: bool = False  # a specific package, python, platform, hardware or build condition held
    waiting: bool = False  # a trigger usage (8-bit loading, FSDP2, ...) is unknown
    told: bool = False  # a usage condition held: the user's config describes this scenario
    partial: bool = False  # a specific condition partly held: a range allows some bad versions
    fix: Fix | None = None  # what escapes this very case, where a table knows (derived facts)


class Condition:
    """One node of a compiled `when:` tree: an immutable value, equal to a node of its class
    whose compared fields are equal (as a frozen dataclass would be).

    Not a dataclass: a frozen dataclass compiles six generated methods with exec() when its
    class is created, and every doctor run creates a dozen condition classes (about 8% of its
    instructions went to the 24 dataclasses it made). A subclass lists its fields in `__slots__`
    and annotates them, takes them in that order in `__init__` and assigns them once through
    `_set`; where some fields only explain a verdict, `_compared` names those that equality and
    hashing read.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()  # every field along the class's bases, first base first
    _compared: tuple[str, ...] | None = None  # None: every field

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        # In the order the annotations declare them (the order of `__init__`'s parameters).
        cls._fields = tuple(
            name
            for klass in reversed(cls.__mro__)
            for name in inspect.get_annotations(klass)
            if not name.startswith("_")
        )

    def _set(self, **values: object) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._compared or self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Condition)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({shown})"

    def __reduce__(self) -> tuple[type[Condition], tuple[object, ...]]:
        """Copied and pickled through `__init__` (its parameters are the fields, in order)."""
        return (self.__class__, tuple(getattr(self, name) for name in self._fields))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def evaluate(self, facts: Facts) -> Verdict:
        raise NotImplementedError

    def package_names(self) -> tuple[NormalizedName, ...]:
        """Packages that must be present for this condition to hold (used to skip rules fast)."""
        return ()


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    severity: Severity
    evidence: Evidence
    when: Condition
    fix: Fix
    references: tuple[str, ...]
    symptoms: tuple[Symptom, ...] = ()
    description: str = ""
    examples: tuple[Example, ...] = ()
    origin: Origin | None = None  # file:line of the rule's `- id:` entry
    kind: str = "rule"  # "rule" (knowledge base) or "pip-check" (declared requirements)
    supersedes: tuple[str, ...] = ()  # ids of retired rules this one answers for (waivers, show)
    # what compat reads of the installed files that answers this rule's question (issue 33):
    # (("symbols", "flash-attn"),) -- flash-attn's extensions read against torch's exports
    settled_by: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Finding:
    rule: Rule
    status: Status
    packages: tuple[MatchedPackage, ...] = ()
    unknown: tuple[Unknown, ...] = ()
    matched: tuple[str, ...] = ()  # the conditions that held, in words ("deepspeed 0.14.2 in ...")
    install: str = ""  # check: the install it belongs to ("base", "extra vllm"); "" = the only one
    fix: Fix | None = None  # this case's own fix, where a table names it (else the rule's)

    @property
    def remedy(self) -> Fix:
        """The fix to show and pin toward: the finding's own, else its rule's."""
        return self.fix or self.rule.fix


if TYPE_CHECKING:  # annotations only: importing packaging here would cost every start-up
    from packaging.utils import NormalizedName
    from packaging.version import Version
