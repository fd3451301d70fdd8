"""`compat mcp`: a Model Context Protocol server over stdio (compat.cli.mcpserver)."""

from compat.cli.base import app, command
from compat.cli.options import DebugOpt
from compat.errors import EXIT_OK, UsageError

MCP_HELP = """Serve compat's commands to an AI agent: a Model Context Protocol server over stdio.

Tools: doctor, check, explain, pin (with or without proof), matrix_show, matrix_search (by
package, error text or rule id) and probe. Each returns compat's JSON document and a short
summary; all are read-only. Needs the extra: pip install 'compat[mcp]'.

\b
Agent host configuration (Claude Desktop, Cursor, VS Code, ...):
  {"mcpServers": {"compat": {"command": "compat", "args": ["mcp"]}}}
"""


@command(app, help=MCP_HELP)
def mcp(*, debug: DebugOpt = False) -> int:
    try:
        from compat.cli.mcpserver import serve
    except ImportError as error:
        if error.name is not None and not error.name.startswith("mcp"):
            raise
        raise UsageError("compat mcp needs the MCP SDK", hint="pip install 'compat[mcp]'") from None
    serve()
    return EXIT_OK
