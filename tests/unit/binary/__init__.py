"""compat/binary/: the ELF, fat-binary and demangle readers, on synthetic ELF files
(tests/lib/elfbuild.py), their corruptions, and real libraries from real wheels."""
