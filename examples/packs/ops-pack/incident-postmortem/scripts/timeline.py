"""Print an incident timeline from the ticket export (example script of the ops pack)."""

import csv
import sys


def main() -> None:
    incident = sys.argv[sys.argv.index("--incident") + 1] if "--incident" in sys.argv else None
    with open("exports/tickets.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            if incident is None or row.get("incident") == incident:
                print(row["opened_at"], row["id"], row["priority"])


if __name__ == "__main__":
    main()
