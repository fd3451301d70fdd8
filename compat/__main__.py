"""`python -m compat` runs the same CLI as the `compat` console script."""

from compat.cli import main

if __name__ == "__main__":
    main()
