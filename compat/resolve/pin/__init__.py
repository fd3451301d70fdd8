"""pin's solver: candidates, the weighted MaxSAT plan, the proof by the real resolver, the
constraints it writes."""
