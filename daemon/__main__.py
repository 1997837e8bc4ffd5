"""`python -m daemon` — the same as the `metaeng-daemon` console script."""

import sys

from daemon.launch import main

sys.exit(main())
