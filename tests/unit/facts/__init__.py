"""compat/facts/: where facts come from (dist-info, conda records, requirement and lock files,
launch commands, logs), each reader on real files."""
