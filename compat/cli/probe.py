"""`compat probe`: the GPUs, driver, CUDA and ROCm facts, as text or a hardware profile."""

from compat.cli.base import app, command
from compat.cli.options import DebugOpt, OutputOpt, TextOrJson, TextOrJsonOpt
from compat.errors import EXIT_OK


@command(
    app,
    help="""Show the GPUs and driver facts training will see: NVIDIA's (NVML; no CUDA
context) and AMD's (the KFD topology, amd-smi, ROCm's .info/version; no ROCm needed).

\b
Examples:
  compat probe
  compat probe --format json -o cluster.json   # a profile for `--hardware` on CPU-only CI
  HSA_OVERRIDE_GFX_VERSION=11.0.0 compat probe   # AMD: the target it loads
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
        amd_only = bool(hardware.gpus) and all(g.is_amd for g in hardware.gpus)
        emit(
            render_profile_text(hardware)
            + render_variants_text(variants, amd_only=amd_only)
            + render_text(conda),
            output,
        )
    return EXIT_OK
