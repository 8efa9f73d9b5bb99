# Corpus shim for unsloth_zoo/temporary_patches/__init__.py (the original is
# kept beside it as __init__.py.orig).  The original star-imports every
# patch module of the package (Gemma, Qwen, GPT-OSS, Mixtral, DeepSeek...,
# about 22,000 lines patching transformers' model classes).  Unsloth's
# kernels import only temporary_patches.common (torch_compile, its logging
# switches), which Python can import without the siblings; this empty file
# lets it do so on machines that have no transformers.
