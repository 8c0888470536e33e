"""The Desert advice and the board editor's API (docs/app.md)."""
from __future__ import annotations

from flask import Blueprint

tools = Blueprint("tools", __name__)
