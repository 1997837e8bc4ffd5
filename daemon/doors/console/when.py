"""Timestamps as every console page shows them (pure): `<time datetime="ISO">` carrying the
exact UTC time as text; `static/times.js` turns it into the viewer's relative time, with
the exact local time on hover. Registered as template filters by `pages`."""

from __future__ import annotations

from datetime import UTC, datetime


def _instant(moment: datetime | str) -> datetime | None:
    """`moment` as an aware datetime: state files keep ISO text; one without a zone is UTC."""
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
        except ValueError:
            return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def utc_iso(moment: datetime | str) -> str:
    """The `datetime` attribute: ISO 8601 in UTC, to the second ("" for text that is no time)."""
    instant = _instant(moment)
    return instant.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z") if instant else ""


def utc_text(moment: datetime | str) -> str:
    """What the page says before (or without) the script: the exact time in UTC (text that
    is no time, as it is)."""
    instant = _instant(moment)
    return instant.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC") if instant else str(moment)


FILTERS = {"utc_iso": utc_iso, "utc_text": utc_text}
