"""`python -m solver` is `aos-solve`."""
from solver.cli import main

main()
