"""Running the app in production: ``sudoku-web serve`` and gunicorn's settings."""
