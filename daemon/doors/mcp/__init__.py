"""`metaeng-daemon mcp --agent A`: a read-only MCP server over stdio (docs/how-to/connect-runtimes.md)."""
