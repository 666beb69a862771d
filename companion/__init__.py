"""The core of the companion: cards, game logs, rules engines and the store.

Nothing here knows about the user interface.
"""
