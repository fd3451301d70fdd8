"""Where facts come from: installed environments, declared files, configs, launch commands, logs."""
