"""gitroute: a routing index for code repositories that lives inside git."""
from __future__ import annotations

__version__ = "0.1.0"
