"""The real resolvers: pip and uv as subprocess judges, the metadata compat hands them,
build failures, and what an install would do (doctor --install)."""
