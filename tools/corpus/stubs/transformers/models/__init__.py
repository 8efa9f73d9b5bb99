# Stand-in package (see transformers/__init__.py): no models.
