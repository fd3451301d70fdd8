"""Declared requirements: one module per file format (requirements, pyproject, locks, Pipfile, ...)."""
