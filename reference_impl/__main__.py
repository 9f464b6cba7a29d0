"""`python -m reference_impl` is `gostop-reference`."""

import sys

from reference_impl._cli import main

sys.exit(main())
