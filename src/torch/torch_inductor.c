/* torch_inductor.c - torch._inductor and its config module: the names of
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

void torch_inductor_add(host *h, val torch)
{
    val m = val_module_new("torch._inductor");
    val_object_set(torch, "_inductor", val_ref(m));
    host_register_module(h, "torch._inductor", m);
    host_register_source_module(h, "torch._inductor.config", inductor_config_source);
}
