# a module that does not parse
def f(x):
    return x +* 2
