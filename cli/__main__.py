"""`python -m bsl_pipeline.cli ...` (also what torchrun launches: `torchrun --nproc_per_node 2 -m bsl_pipeline.cli train ...`)."""

import sys

from bsl_pipeline.cli.program import main

sys.exit(main())
