"""compat/diagnose/: explain's scan and verdicts on real crash logs."""
