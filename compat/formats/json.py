"""`--format json`: the `compat.report/1` document, written by compat.reportdoc beside `Report`."""

from compat.reportdoc import finding_document, render, report_document

__all__ = ["finding_document", "render", "report_document"]
