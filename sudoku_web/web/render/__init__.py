"""What pages draw: grids, cage outlines, pencil grids and teaching displays, the PNG
preview. No Flask here: each module is tested without an app."""
