# nspkg has no __init__.py: a namespace package
WHO = "nspkg.part"
