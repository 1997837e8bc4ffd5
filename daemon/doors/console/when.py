"""Timestamps as every console page shows them (pure): `<time datetime="ISO">` carrying the
exact UTC time as text; `static/times.js` turns it into the viewer's relative time, with
the exact local time on hover. Registered as template filters by `pages`."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_iso(moment: datetime) -> str:
    """The `datetime` attribute: ISO 8601 in UTC, to the second."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def utc_text(moment: datetime) -> str:
    """What the page says before (or without) the script: the exact time in UTC."""
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


FILTERS = {"utc_iso": utc_iso, "utc_text": utc_text}
