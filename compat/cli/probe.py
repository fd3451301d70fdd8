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
    from compat.cli.output import emit
    from compat.probes.gpu import probe_hardware
    from compat.probes.profile import profile_document, render_profile_text

    hardware = probe_hardware()
    if format_ is TextOrJson.json:
        import json

        emit(json.dumps(profile_document(hardware), indent=2) + "\n", output)
    else:
        emit(render_profile_text(hardware), output)
    return EXIT_OK
