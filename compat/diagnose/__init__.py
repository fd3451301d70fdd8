"""Diagnosis of a log (`compat explain`): the scan, the facts' merge, verdicts and their order."""
