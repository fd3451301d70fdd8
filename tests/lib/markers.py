"""A fixed PEP 508 environment for unit tests that must not depend on the interpreter running
them: CPython 3.11.7 on Linux x86_64."""

LINUX_X86_64_311 = {
    "implementation_name": "cpython",
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "platform_system": "Linux",
    "python_full_version": "3.11.7",
    "python_version": "3.11",
    "sys_platform": "linux",
}
