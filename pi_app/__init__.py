"""The table service: configuration, the one event loop, the journal, the CLI, screens."""

import os as _os

# pygame prints a greeting on import; the service's output (JSON lines) must stay clean
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
