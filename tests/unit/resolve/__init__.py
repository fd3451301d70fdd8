"""compat/resolve/: the package index client and its configuration, pip and uv as judges, and
pin's algorithm (candidates, solver, proof, constraints), against a real index on 127.0.0.1."""
