"""The teaching pages: a puzzle's steps, the engine's search, its difficulty and hints."""
