"""The camera and the table's geometry: frames in, table coordinates out.

Frame sources, the calibration from picture to table (seat zones), the printable mat,
a slanted view warped to an overhead one, and whether a camera's picture is good enough.
"""
