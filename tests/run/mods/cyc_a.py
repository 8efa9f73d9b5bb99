# cyc_a and cyc_b import each other: each sees the other partially initialised
EARLY = "early"
import cyc_b


def late():
    return "a.late sees b.VALUE = " + str(cyc_b.VALUE)
