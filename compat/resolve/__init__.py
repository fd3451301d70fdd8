"""Versions that would be installed: the package index, the real resolvers, pin's solver."""
