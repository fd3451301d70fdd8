"""compat/commands/: the work of a command that is more than wiring (doctor --install's what-if,
every pixi environment judged on its own)."""
