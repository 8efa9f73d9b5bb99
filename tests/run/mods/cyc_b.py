import cyc_a
from cyc_a import EARLY

try:
    from cyc_a import late
except ImportError as e:
    print("cyc_b:", type(e).__name__, str(e).rsplit(" (", 1)[0])
try:
    cyc_a.late
except AttributeError as e:
    print("cyc_b:", e)
VALUE = EARLY + "+b"
