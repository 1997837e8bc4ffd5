"""The local web console (docs/explanation/console.md): a door like the CLI.

Starlette routes render Jinja2 templates (autoescaped) from the same library reads the
commands use, and every button calls the same library code as its command under the
same run lock. htmx is vendored in `static/`; no build step, nothing from a CDN.
"""
