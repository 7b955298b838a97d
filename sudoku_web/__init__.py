"""sudoku-web: a fast, trustworthy Sudoku solver for the browser."""
