"""Reading native files: ELF shared objects (headers, dynamic section, dynamic symbols, hash
tables) and the CUDA fat binaries inside them. Bounded reads only, never whole files; every
file is hostile input (issue 33)."""
