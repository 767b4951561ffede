"""The `bsl` subcommands, one module per command group. Each exposes `register(subparsers)`, which declares its
commands with `bsl.config_args.add_command`; a command's `run(args)` calls library functions, prints their typed
results and returns the exit code."""
