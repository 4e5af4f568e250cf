"""``python -m tablehub`` is the ``tablehub`` command."""

import sys

from tablehub.cli import main

sys.exit(main())
