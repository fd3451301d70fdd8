"""The whole product at once: the house itself (layers, one reader of the rule language), the
user's install path, the corpora of real files, one answer whatever the cache holds, and the
fuzzing of every command and parser (tests/fuzzing.py)."""
