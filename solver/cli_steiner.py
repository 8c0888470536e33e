"""`aos-solve steiner`: placeholder, filled in by the Steiner work (issue 3)."""
import typer


def register(app: typer.Typer) -> None:
    pass
