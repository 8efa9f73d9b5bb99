# helper.py - a plain module of tests/run/import-*.tk: its body runs once
print("helper: running as", __name__)
COUNT = 0
SCALE = 3


def bump():
    global COUNT
    COUNT += 1
    return COUNT


def scaled(x):
    return x * SCALE


class Thing:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return f"Thing({self.v})"
