"""`python -m kiosk` is the same as the `kiosk` command."""

from kiosk.cli import main

raise SystemExit(main())
