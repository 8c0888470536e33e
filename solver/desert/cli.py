"""`aos-solve desert ...`: placeholder, filled in by the Desert work (issue 7)."""
import typer


def register(app: typer.Typer) -> None:
    pass
