"""A puzzle in a request: read from a form, a share link, JSON, a photo or a request for a
new one; its URLs; the words for what is wrong with it. Shared by the blueprints."""
