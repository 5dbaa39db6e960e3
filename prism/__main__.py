"""Entry point of ``python -m prism``."""

from __future__ import annotations

import sys

from prism.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
