"""compat.kb.knowledge.validate_file keeps a file's validated rules for the process, by path and
the sha256 of its bytes (issue 45): the same bytes give the same rules, which no caller can
change for the next one; changed bytes are validated again, and a broken file is never kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat.errors import KnowledgeBaseError
from compat.kb.knowledge import rule_files, validate_file


def test_the_same_bytes_give_the_same_rules_and_a_caller_cannot_change_them() -> None:
    path = rule_files()[0]
    first = validate_file(path)
    expected = validate_file(path, path.read_bytes())
    assert first == expected and first
    first[0]["id"] = "changed-by-a-caller"
    first.append({})
    assert validate_file(path) == expected


def test_changed_bytes_are_validated_again_and_a_broken_file_is_never_kept(
    tmp_path: Path,
) -> None:
    shipped = rule_files()[0]
    path = tmp_path / "rules.yaml"
    path.write_bytes(shipped.read_bytes())
    good = validate_file(path)
    broken = shipped.read_bytes().replace(b"rules:", b"rules: 3\nnot-rules:", 1)
    for _ in range(2):
        with pytest.raises(KnowledgeBaseError):
            validate_file(path, broken)
    assert validate_file(path) == good
