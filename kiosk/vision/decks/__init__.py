"""Learning a deck: a table's own deck learnt at set-up, from photos, and during play.

The enrolment layout and its labelled photos, deck profiles and their files, the quick
and the deep (whole-network) enrolment, and the layer learnt in play. Torch is imported
only inside the deep enrolment's and the naming network's functions.
"""
