"""Device adapters.  Each turns device input into events on a queue and renders views it is
given; each has a mock backend (the default off the Pi) chosen by configuration."""

import os as _os

# pygame prints a greeting on import; the service's output (JSON lines) must stay clean
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
