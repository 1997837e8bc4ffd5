"""`python -m daemon` — the same as the `metaeng-daemon` console script."""

import sys

from daemon.cli import main

sys.exit(main())
