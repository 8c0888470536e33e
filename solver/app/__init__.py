"""`aos-solve serve`: a local web app (127.0.0.1) to set up boards by clicking, watch solves, play along,
ask the Desert advice and edit board files. docs/app.md describes the pages and the JSON API."""
