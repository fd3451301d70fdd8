"""Where releases and their metadata come from: the package index (PEP 691/503) and its
configuration, compat's dated dependency snapshot, the release lists of exact pins."""
