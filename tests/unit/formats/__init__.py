"""compat/formats/: each renderer's exact output (snapshots) and the HTML page in a real browser."""
