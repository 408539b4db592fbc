# Installed (pip install ./python), the plugin loads through its pytest11 entry point. Run from the source tree
# without installing, it is loaded here by name.
import importlib.metadata

try:
    importlib.metadata.distribution("segued")
except importlib.metadata.PackageNotFoundError:
    import os
    import sys

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    pytest_plugins = ["segued.pytest_plugin", "pytester"]
else:
    pytest_plugins = ["pytester"]
