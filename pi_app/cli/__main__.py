"""``python -m pi_app.cli``: the same as the ``pokertable`` command."""

import sys

from pi_app.cli.main import EXIT_INTERRUPTED, main

try:
    sys.exit(main())
except KeyboardInterrupt:
    sys.exit(EXIT_INTERRUPTED)
