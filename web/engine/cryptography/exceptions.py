"""See cryptography/__init__.py: the one name fairplay.py imports."""


class InvalidSignature(Exception):
    pass
