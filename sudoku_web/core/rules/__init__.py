"""Rules on a board: one module per rule kind, listed once in :mod:`.registry`.

The protocol and the drawing description are :mod:`.base`'s; a board is made from its
size, houses and rules by :func:`.board.build`; our spelling is :mod:`.spelling`'s.
"""
