# Corpus shim for unsloth_zoo/fused_losses/__init__.py (the original is kept
# beside it as __init__.py.orig).  Besides the fused cross-entropy loss, the
# original imports forward_install and forward_adapter: an import hook that
# rewrites transformers' model forward functions (ast, dis, linecache,
# importlib.abc), for models that neither machine has.  unsloth_zoo's
# loss_utils, on the import path of Unsloth's cross-entropy kernel, takes
# only unsloth_fused_ce_loss from this package, so the shim keeps the
# cross_entropy_loss submodule's names and leaves the hook out.
from .cross_entropy_loss import *
