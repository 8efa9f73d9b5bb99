# Stand-in for transformers.quantizers.quantizers_utils (see
# transformers/__init__.py): unsloth_zoo.patching_utils imports the module
# and patches should_convert_module only where it exists, so it is empty.
