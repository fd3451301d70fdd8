"""`compat probe`: the GPUs, driver and CUDA facts, as text or a hardware profile."""

from compat.cli.base import app, command
from compat.cli.options import DebugOpt, OutputOpt, TextOrJson, TextOrJsonOpt
from compat.errors import EXIT_OK


@command(
    app,
    help="""Show the GPUs, driver and CUDA facts training will see (NVML; no CUDA context).

\b
Examples:
  compat probe
  compat probe --format json -o cluster.json   # a profile for `--hardware` on CPU-only CI
""",
)
def probe(
    *,
    format_: TextOrJsonOpt = TextOrJson.text,
    output: OutputOpt = None,
    debug: DebugOpt = False,
) -> int:
    import os

    from compat.cli.output import emit
    from compat.probes.condavirtual import render_text, section
    from compat.probes.gpu import probe_hardware
    from compat.probes.profile import profile_document, render_profile_text
    from compat.probes.variants import render_variants_text, wheel_variants

    hardware = probe_hardware()
    variants = wheel_variants(hardware, os.environ)
    conda = section(hardware, os.environ)
    if format_ is TextOrJson.json:
        import json

        document = {
            **profile_document(hardware),
            "wheel_variants": variants,
            "conda_virtual_packages": conda,
        }
        emit(json.dumps(document, indent=2) + "\n", output)
    else:
        emit(
            render_profile_text(hardware) + render_variants_text(variants) + render_text(conda),
            output,
        )
    return EXIT_OK
