"""Railroad Tiles with the Desert expansion, its domain: tiles, ruleset and readings, layouts, missions,
scoring and the referee (referee.evaluate).  It imports no model and no play: models/desert_layout
builds on it, and the play (policies, games, advice, ceilings) lives above models/, in solver/desert_play."""
