"""``python -m nataterra_adapters.rpc``: the same as the ``nataterra-rpc`` script."""

import sys

from .server import main

sys.exit(main())
