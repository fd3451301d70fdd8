"""Where package facts come from: installed environments, requirement and lock files."""
