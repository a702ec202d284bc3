"""`python -m generator` behaves exactly like the `pnp` command, exit status included."""

import sys

from generator.cli import main

sys.exit(main())
