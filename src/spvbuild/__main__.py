"""``python -m spvbuild``: the same command line as the ``spvbuild`` console script."""

from spvbuild.cli import entry_point

if __name__ == "__main__":
    entry_point()
