"""One module per `kiosk` sub-command: `add_arguments(parser)` and `run(args) -> int`."""
