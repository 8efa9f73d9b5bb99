/* torch_inductor.c - torch._inductor, its async_compile module (empty but
 * for tqdm) and its config module, and torch.hub's tqdm.  config holds the names of
 * TorchInductor's options that kernel libraries read at import (unsloth_zoo
 * keeps the torch.compile options whose names inspect.getsource finds in
 * the config module's text) or set around torch.compile.  config is
 * written in Python (host_register_source_module), so that it has a text;
 * torch._inductor.config is imported on first use, as the real one is
 * there after `import torch`. */
#include "torch_impl.h"

static const char inductor_config_source[] =
    "\"\"\"torch._inductor.config for tritsim: the names of the TorchInductor\n"
    "options that libraries read or set around torch.compile, with PyTorch 2.x's\n"
    "defaults.  tritsim compiles nothing with Inductor (torch.compile gives the\n"
    "function back as it is), so setting them changes nothing.\"\"\"\n"
    "import os\n"
    "\n"
    "debug = False\n"
    "dce = False\n"
    "epilogue_fusion = True\n"
    "max_autotune = False\n"
    "max_autotune_gemm = False\n"
    "shape_padding = True\n"
    "coordinate_descent_tuning = False\n"
    "memory_planning = False\n"
    "group_fusion = False\n"
    "combo_kernels = False\n"
    "benchmark_combo_kernel = False\n"
    "combo_kernel_foreach_dynamic_shapes = True\n"
    "compile_threads = min(32, os.cpu_count() or 1)\n"
    "disable_progress = True\n"
    "verbose_progress = False\n"
    "fallback_random = False\n"
    "freezing = False\n"
    "force_disable_caches = False\n"
    "\n"
    "\n"
    "class triton:\n"
    "    cudagraphs = False\n"
    "    cudagraph_trees = True\n"
    "    multi_kernel = 0\n"
    "    use_block_ptr = False\n"
    "    enable_persistent_tma_matmul = False\n"
    "    autotune_at_compile_time = None\n"
    "    cooperative_reductions = False\n"
    "    unique_kernel_names = True\n"
    "\n"
    "\n"
    "class cuda:\n"
    "    compile_opt_level = \"-O1\"\n"
    "    enable_cuda_lto = False\n"
    "    use_fast_math = False\n"
    "\n"
    "\n"
    "class trace:\n"
    "    enabled = False\n"
    "    graph_diagram = False\n";

static const char inductor_async_source[] =
    "\"\"\"torch._inductor.async_compile for tritsim: Inductor's parallel compile\n"
    "pool has nothing to do (tritsim compiles nothing with Inductor); the\n"
    "module is there for the libraries that set its progress bar (tqdm).\"\"\"\n"
    "from torch.hub import tqdm\n";

static const char hub_source[] =
    "\"\"\"torch.hub for tritsim: only its tqdm, the progress bar torch.hub uses for\n"
    "downloads (PyTorch's own fallback class when the tqdm package is absent),\n"
    "which libraries borrow for their progress bars.  tritsim downloads\n"
    "nothing; the bar counts what it is told (n) and writes nothing.\"\"\"\n"
    "\n"
    "class tqdm:\n"
    "    def __init__(self, iterable=None, total=None, desc=None, disable=False, unit=\"it\",\n"
    "                 unit_scale=False, unit_divisor=1000, **kwargs):\n"
    "        self.iterable = iterable\n"
    "        if total is None and iterable is not None:\n"
    "            try:\n"
    "                total = len(iterable)\n"
    "            except TypeError:\n"
    "                total = None\n"
    "        self.total = total\n"
    "        self.desc = desc or \"\"\n"
    "        self.disable = disable\n"
    "        self.n = 0\n"
    "\n"
    "    def __iter__(self):\n"
    "        for item in self.iterable:\n"
    "            yield item\n"
    "            self.n += 1\n"
    "\n"
    "    def update(self, n=1):\n"
    "        self.n += n\n"
    "\n"
    "    def set_description(self, desc=None, refresh=True):\n"
    "        # (as the tqdm package: the bar shows \"desc: \" before its count)\n"
    "        self.desc = desc + \": \" if desc else \"\"\n"
    "\n"
    "    def close(self):\n"
    "        pass\n"
    "\n"
    "    def __enter__(self):\n"
    "        return self\n"
    "\n"
    "    def __exit__(self, *exc):\n"
    "        self.close()\n"
    "        return False\n";

void torch_inductor_add(host *h, val torch)
{
    val m = val_module_new("torch._inductor");
    val_object_set(torch, "_inductor", val_ref(m));
    host_register_module(h, "torch._inductor", m);
    host_register_source_module(h, "torch._inductor.config", inductor_config_source);
    host_register_source_module(h, "torch._inductor.async_compile", inductor_async_source);
    host_register_source_module(h, "torch.hub", hub_source);
}
