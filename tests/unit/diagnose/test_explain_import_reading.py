"""explain reads an import failure by its mechanism (issue 41, item 3): the importing frame in
every form printers write it, M's own frames set apart, the release the log prints judged by the
generated import table, and the failures that are no release's (a circular import, a namespace
package, a shadowing file, the project's own package) never listed as causes.

The logs are composed in the wordings Python and its printers use (CPython 3.8 and 3.12,
IPython 7 and 8, rich), with names and releases other than benchmarks/heldout/explain-imports-1's:
accelerate 0.32+ importing `split_torch_state_dict_into_shards` (huggingface_hub defines it from
0.21.0 of the releases compat/data/python-imports.json read; mlflow/mlflow#12582: 0.17.3 lacks it), datasets importing
`insecure_hashlib` from huggingface_hub.utils (from 0.19.0), PEFT importing the module
huggingface_hub.errors (from 0.22.0 in the table), NumPy's removed `np.float` (1.24.0).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli

SITE = "/opt/venv/lib/python3.11/site-packages"
SPLIT = (
    "ImportError: cannot import name 'split_torch_state_dict_into_shards' from 'huggingface_hub' "
    f"({SITE}/huggingface_hub/__init__.py)\n"
)
CPYTHON = (
    "Traceback (most recent call last):\n"
    '  File "/home/u/train.py", line 3, in <module>\n'
    "    import accelerate\n"
    f'  File "{SITE}/accelerate/__init__.py", line 16, in <module>\n'
    "    from .accelerator import Accelerator\n"
    f'  File "{SITE}/accelerate/accelerator.py", line 34, in <module>\n'
    "    from huggingface_hub import split_torch_state_dict_into_shards\n" + SPLIT
)


def explain(tmp_path: Path, text: str) -> tuple[int, list[dict[str, Any]]]:
    log = tmp_path / "run.log"
    log.write_text(text, encoding="utf-8")
    result = run_cli(["explain", str(log), "--format", "json"])
    document: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, document["imports"]


def one(tmp_path: Path, text: str) -> tuple[int, dict[str, Any]]:
    code, found = explain(tmp_path, text)
    (entry,) = found
    return code, entry


FRAMES = {
    "ipython-8": (
        "ImportError                               Traceback (most recent call last)\n"
        "Cell In[2], line 1\n"
        "----> 1 import accelerate\n"
        f"File {SITE}/accelerate/accelerator.py:34\n"
        "     33 from accelerate.utils.imports import is_torchao_available\n"
        "---> 34 from huggingface_hub import split_torch_state_dict_into_shards\n" + SPLIT,
        f"{SITE}/accelerate/accelerator.py:34",
    ),
    "ipython-7-colab": (
        "ImportError                               Traceback (most recent call last)\n"
        "<ipython-input-3-0c4bd1a2> in <module>()\n"
        "----> 1 import accelerate\n\n"
        "2 frames\n"
        f"[{SITE}/accelerate/accelerator.py](https://localhost:8080/#) in <module>\n"
        "     33 \n"
        "---> 34 from huggingface_hub import split_torch_state_dict_into_shards\n\n" + SPLIT,
        f"{SITE}/accelerate/accelerator.py",
    ),
    "rich-wrapped": (
        "╭────────────── Traceback (most recent call last) ──────────────╮\n"
        "│ /home/u/train.py:3 in <module>                                 │\n"
        f"│ {SITE}/accelerate/accelerator.py │\n"
        "│ :34 in <module>                                                │\n"
        "│ ❱ 34 from huggingface_hub import split_torch_state_dict_into_shards │\n"
        "╰────────────────────────────────────────────────────────────────╯\n" + SPLIT,
        f"{SITE}/accelerate/accelerator.py:34",
    ),
    "cpython-3.12-did-you-mean": (
        CPYTHON.replace(
            "__init__.py)\n", "__init__.py). Did you mean: 'split_state_dict_into_shards'?\n"
        ),
        f"{SITE}/accelerate/accelerator.py:34",
    ),
}


@pytest.mark.parametrize("form", list(FRAMES))
def test_the_importing_frame_is_read_in_every_printers_form(tmp_path: Path, form: str) -> None:
    text, frame = FRAMES[form]
    code, entry = one(tmp_path, text)
    assert (entry["module"], entry["name"]) == (
        "huggingface_hub",
        "split_torch_state_dict_into_shards",
    )
    assert entry["importer"] == frame
    assert entry["importer_package"] == "accelerate"
    assert entry["cause"] == "possible" and code == 0
    # the table's releases that define the name: 0.21.0 onwards, not 0.20.3
    assert entry["defined_from"] == "compat/data/python-imports.json"
    assert entry["defined_in"].startswith("0.21.0–")
    # neither release is in the log: the cause asks for both
    assert entry["asks"] == ["packages.huggingface-hub", "packages.accelerate"]


def test_the_modules_own_frames_are_not_the_importer(tmp_path: Path) -> None:
    # NumPy 1.24 removed np.float: numpy's __getattr__ raises, in numpy's own frame; the code
    # that asked is the library above it (Python 3.8 wording, no "Did you mean")
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/aug.py", line 1, in <module>\n'
        "    import imgaug\n"
        f'  File "{SITE}/imgaug/imgaug.py", line 45, in <module>\n'
        "    NP_FLOAT_TYPES = set(np.sctypes['float'] + [np.float])\n"
        f'  File "{SITE}/numpy/__init__.py", line 305, in __getattr__\n'
        "    raise AttributeError(__former_attrs__[attr])\n"
        "AttributeError: module 'numpy' has no attribute 'float'.\n"
    )
    code, entry = one(tmp_path, text)
    assert entry["importer"] == f"{SITE}/imgaug/imgaug.py:45"
    assert entry["importer_package"] == "imgaug"
    # an installed numpy (its own frame) lacks the attribute: a possible cause
    assert entry["kind"] == "no-attribute" and entry["cause"] == "possible" and code == 0
    assert entry["defined_in"] == ""  # compat has no table of NumPy's names: it names none
    assert "not known to compat yet" in entry["detail"]


def test_the_release_the_log_shows_is_judged_by_the_table(tmp_path: Path) -> None:
    # huggingface_hub 0.20.3 lacks the name (defined from 0.21.0): confirmed; accelerate's
    # release is read from the same freeze
    freeze = "accelerate==0.33.0\nhuggingface_hub==0.20.3\n"
    code, entry = one(tmp_path, freeze + CPYTHON)
    assert (entry["version"], entry["version_from"]) == ("0.20.3", "log")
    assert entry["importer_release"] == "0.33.0"
    assert entry["cause"] == "confirmed" and code == 0
    assert entry["asks"] == []
    assert "python-imports.json read 0.20.3's files" in entry["detail"]


def test_a_release_that_defines_the_name_rules_the_cause_out(tmp_path: Path) -> None:
    # huggingface_hub 0.24.7 defines it: the release shown is not the cause; nothing is listed
    code, entry = one(tmp_path, "huggingface-hub 0.24.7\n" + CPYTHON)
    assert entry["version"] == "0.24.7"
    assert entry["cause"] == "ruled-out" and code == 1
    assert "defines `split_torch_state_dict_into_shards`" in entry["detail"]


def test_a_missing_submodule_of_a_distribution_is_a_possible_cause(tmp_path: Path) -> None:
    # PEFT imports the module huggingface_hub.errors, which huggingface_hub 0.20 lacks
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{SITE}/peft/utils/loftq_utils.py", line 26, in <module>\n'
        "    from huggingface_hub.errors import HFValidationError\n"
        "ModuleNotFoundError: No module named 'huggingface_hub.errors'\n"
    )
    code, entry = one(tmp_path, text)
    assert (entry["kind"], entry["module"], entry["name"]) == (
        "no-module",
        "huggingface_hub",
        "errors",
    )
    assert entry["importer_package"] == "peft" and entry["cause"] == "possible" and code == 0
    assert entry["defined_in"].startswith("0.22.0–")
    code, entry = one(tmp_path, "huggingface_hub==0.20.1\n" + text)
    assert entry["cause"] == "confirmed"


NO_RELEASE = {
    "circular-import": (
        "ImportError: cannot import name 'load_dataset' from partially initialized module "
        "'datasets' (most likely due to a circular import) (/home/u/proj/datasets.py)\n",
        "partially initialized",
    ),
    "namespace-package": (
        "ImportError: cannot import name 'AutoTokenizer' from 'transformers' (unknown location)\n",
        "namespace package",
    ),
    "shadowing-file": (
        'Traceback (most recent call last):\n  File "/home/u/proj/train.py", line 2, in <module>\n'
        "    from datasets import load_dataset\n"
        "ImportError: cannot import name 'load_dataset' from 'datasets' (/home/u/proj/datasets.py)\n",
        "shadows",
    ),
    "not-a-package": (
        "ModuleNotFoundError: No module named 'numpy.random'; 'numpy' is not a package\n",
        "is not a package",
    ),
    "projects-own-package": (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/mylib/train.py", line 4, in <module>\n'
        "    from mylib.models import build\n"
        '  File "/home/u/proj/mylib/models/__init__.py", line 2, in <module>\n'
        "    from mylib.models.heads import Head\n"
        "ModuleNotFoundError: No module named 'mylib.models.heads'\n",
        "project's own package",
    ),
    "partially-initialized-attribute": (
        "AttributeError: partially initialized module 'torch' has no attribute 'Tensor' "
        "(most likely due to a circular import)\n",
        "circular import",
    ),
}


@pytest.mark.parametrize("case", list(NO_RELEASE))
def test_failures_that_are_no_releases_are_not_causes(tmp_path: Path, case: str) -> None:
    text, why = NO_RELEASE[case]
    code, entry = one(tmp_path, text)
    assert entry["cause"] == "" and code == 1
    assert why in entry["detail"]


def test_an_attribute_missing_in_the_projects_code_is_not_listed(tmp_path: Path) -> None:
    # no frame of an installed distribution, no path or version of numpy: it may be a
    # submodule never imported, or a stand-in; the log does not settle a release
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/run.py", line 9, in <module>\n'
        "    x = np.float(3)\n"
        "AttributeError: module 'numpy' has no attribute 'float'\n"
    )
    code, entry = one(tmp_path, text)
    assert entry["cause"] == "" and code == 1
    assert "does not show numpy to be an installed distribution" in entry["detail"]


def test_an_egg_directory_names_the_releases(tmp_path: Path) -> None:
    # setup.py-installed eggs carry their release in the directory: the importer's (TRL
    # 0.7.4) and the module's (transformers 4.39.3, which lacks top_k_top_p_filtering)
    eggs = "/home/u/env/lib/python3.10/site-packages"
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{eggs}/trl-0.7.4-py3.10.egg/trl/core.py", line 25, in <module>\n'
        "    from transformers import top_k_top_p_filtering\n"
        "ImportError: cannot import name 'top_k_top_p_filtering' from 'transformers' "
        f"({eggs}/transformers-4.39.3-py3.10.egg/transformers/__init__.py)\n"
    )
    code, entry = one(tmp_path, text)
    assert (entry["importer_package"], entry["importer_release"]) == ("trl", "0.7.4")
    assert (entry["version"], entry["version_from"]) == ("4.39.3", "path")
    # the table read transformers 4.39.3: it lacks the name
    assert entry["cause"] == "confirmed" and code == 0 and entry["asks"] == []


def test_a_resolver_asking_the_projects_module_is_not_a_cause(tmp_path: Path) -> None:
    # hydra's `_locate` getattr()s the project's own package before importing it: an installed
    # frame asks, but of a module no distribution compat knows and the log never shows installed
    text = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/env/lib/python3.8/site-packages/hydra/_internal/utils.py", line 639, '
        "in _locate\n"
        "    obj = getattr(obj, part)\n"
        "AttributeError: module 'robotask.workspace' has no attribute 'train_workspace'\n"
    )
    code, entry = one(tmp_path, text)
    assert entry["importer_package"] == "hydra"
    assert entry["cause"] == "" and code == 1


@pytest.mark.parametrize("quoted", [True, False])
def test_an_old_pythons_message_takes_the_module_from_the_echoed_source(
    tmp_path: Path, quoted: bool
) -> None:
    # Python before 3.7 names no module (2.7 not even quotes the name): the source line the
    # traceback echoes does
    name = "'insecure_hashlib'" if quoted else "insecure_hashlib"
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/env/lib/python3.6/site-packages/datasets/utils/file_utils.py", line 33, '
        "in <module>\n"
        "    from huggingface_hub.utils import insecure_hashlib\n"
        f"ImportError: cannot import name {name}\n"
    )
    code, entry = one(tmp_path, text)
    assert (entry["module"], entry["name"]) == ("huggingface_hub.utils", "insecure_hashlib")
    assert entry["importer_package"] == "datasets" and entry["cause"] == "possible" and code == 0
    assert entry["defined_in"].startswith("0.19.0–")  # the table: from 0.19.0 (0.18.0 lacks it)


def test_an_old_pythons_message_without_the_import_echoed_is_not_guessed(tmp_path: Path) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/srv/run.py", line 3, in <module>\n'
        "    import helpers\n"
        "ImportError: cannot import name 'Widget'\n"
    )
    code, found = explain(tmp_path, text)
    assert found == [] and code == 1
