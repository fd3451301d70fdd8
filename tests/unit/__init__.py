"""Tests of one room of the house each (tests/unit/<room>/, the rooms of docs/architecture.md)."""
