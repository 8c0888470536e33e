"""The Desert's play: the online policies, a whole seeded game with perfect foresight, the advice for a
round at the table, the mid-game ceiling.  It sits above models/ (it asks models/desert_layout for
layouts and bounds), which sits above the Desert's domain (solver/desert: tiles, rules, the referee)."""
