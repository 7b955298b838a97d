"""The form and result pages: the puzzle form, its POSTs, a share link's result page
and its picture, the printable puzzle."""
