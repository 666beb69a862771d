"""The table of the trick games, in parts that each do one thing.

``trick_table`` is the screen (session in, widgets out); ``card_grid`` the
round's cards and the trick being entered; ``board`` the scoreboard;
``round_view`` a round's start, tricks and results; ``piles`` piles counted
at the end. The parts import only the shared widgets, never another screen.
"""

from screens.table.trick_table import TrickTable

__all__ = ["TrickTable"]
