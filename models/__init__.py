"""Constraint and optimisation models (CP-SAT, MIP). Each module builds one model."""
