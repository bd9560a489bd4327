"""`python -m gitroute` runs the `git route` command line."""
from gitroute.cli import main

main()
