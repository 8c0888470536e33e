"""aos-solve: solvers and a referee for solo Age of Steam maps and Railroad Tiles Desert."""
