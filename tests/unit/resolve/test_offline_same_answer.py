"""The offline solve gives the answers it gave before it was made faster (issue 45): every solve
`compat check --offline` makes on the real files of tests/data/real/check (236 installs, unsloth's
173 among them), with their inputs and answers recorded on the solve before the change
(tests/data/solves, `python benchmarks/offline_solves.py record`, clocks off: the counts of work
bound each solve, the same on any machine), solved again and compared whole: every package's
release, what is unknown or unread, who requires what, and where no install exists, the
message and the proof."""

from __future__ import annotations

import pytest

from tests.lib.solves import read, solve_recorded

INPUTS = read("inputs.json.gz")
ANSWERS = read("answers.json.gz")


def test_the_recording_covers_every_kind_of_answer() -> None:
    answers = [a for each in ANSWERS.values() for a in each]
    assert len(answers) == sum(len(each) for each in INPUTS.values()) == 236
    kinds = {a.get("raised", "solved") for a in answers}
    # solved installs, installs the snapshot proves impossible, and solves stopped at the
    # count of rejected releases (unsloth's): each must stay what it was
    assert kinds == {"solved", "NoOfflineInstall", "SolveStopped"}
    assert any(a.get("explanation") for a in answers)  # a proof, compared word for word


@pytest.mark.parametrize("name", sorted(n for n, each in INPUTS.items() if each))
def test_every_recorded_solve_gives_the_recorded_answer(name: str) -> None:
    for index, (item, answer) in enumerate(zip(INPUTS[name], ANSWERS[name], strict=True)):
        got = solve_recorded(item)
        differ = {
            k: (answer.get(k), got.get(k)) for k in {*got, *answer} if got.get(k) != answer.get(k)
        }
        assert not differ, f"{name}: install {index}: {str(differ)[:2000]}"
