"""The command-line contract: commands, flags, COMPAT_* variables, exit codes, the JSON documents
and output files, `--help` and start-up, driving `compat` as a user or CI does (typer runner or
a real process). What one room computes is tested in tests/unit/<room>/."""
