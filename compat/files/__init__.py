"""Reading what compat did not write (bounded, one line per error) and where it keeps its cache."""
