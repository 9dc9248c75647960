"""Reading the 5s: the players' own score board, each side's two 5s counted by their pips.
"""
