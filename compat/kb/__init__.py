"""The knowledge base: loading, the rule language, lint, bundles, capabilities, generated tables."""
