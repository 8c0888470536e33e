"""Railroad Tiles with the Desert expansion: tiles, scorer, layout solver."""
