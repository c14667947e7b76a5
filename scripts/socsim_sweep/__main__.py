"""`python3 -m socsim_sweep` is `socsim sweep`; `python3 -m socsim_sweep.compare` is
`socsim compare`."""
import sys

from socsim_sweep.cli import main

sys.exit(main())
