"""`python -m bsl ...` (also what torchrun launches: `torchrun --nproc_per_node 2 -m bsl train ...`)."""

import sys

from bsl.cli import main

sys.exit(main())
