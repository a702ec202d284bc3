"""`python -m generator` behaves exactly like the `pnp` command."""

from generator.cli import main

main()
