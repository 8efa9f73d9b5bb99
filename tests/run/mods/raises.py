# a module whose body fails
def check(n):
    if n > 2:
        raise ValueError(f"too big: {n}")
    return n


LIMIT = check(5)
