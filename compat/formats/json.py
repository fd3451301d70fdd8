"""`--format json`: the `compat.report/1` document, written by compat.reportdoc beside `Report`."""

from compat.reportdoc import render

__all__ = ["render"]
