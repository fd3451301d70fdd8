"""compat: known-bad combinations in ML training stacks, checked before they cost a run."""

__version__ = "0.1.0"
