"""The play page: a share link's puzzle to solve in the browser."""
