# lit configuration for Accy: one folder per stage, run through accy-opt
# (single passes and stage pipelines) and accyc (whole files).
import os
import shutil

import lit.formats
import lit.llvm

# lit finds this file from the source tree; the values CMake knows (tool
# paths) come from the generated site file named by --param config_site.
if not hasattr(config, "accy_build_dir"):
    site = lit_config.params.get("config_site")
    if not site:
        lit_config.fatal("run through ctest, or pass --param config_site=BUILD/tests/lit/lit.site.cfg.py")
    lit_config.load_config(config, site)
lit.llvm.initialize(lit_config, config)
from lit.llvm import llvm_config

config.name = "Accy"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".accy", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.accy_build_dir, "tests", "lit")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.accy_tools_dirs.split(os.pathsep), append_path=True)

config.substitutions.append(("%accyc", config.accyc))
# Tests compile what they say, never what another test left in a kernel
# store; the store's own tests name a directory with --cache-dir.
config.environment["ACCY_CACHE_DISABLE"] = "1"
config.substitutions.append(("%accy-opt", config.accy_opt))
config.substitutions.append(("%accy-lsp", config.accy_lsp))
config.substitutions.append(("%accy-format", config.accy_format))
if config.accy_static_llvm:
    config.available_features.add("static-llvm")

# The PTX checks need a CUDA toolkit; they are skipped (and say so) without.
ptxas = shutil.which("ptxas") or next(
    (p for p in [os.path.join(os.environ.get("CUDA_HOME", ""), "bin", "ptxas"),
                 "/usr/local/cuda/bin/ptxas"] if os.path.isfile(p)), None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# Host objects are linked with the C++ compiler into small test programs.
cxx = shutil.which("c++")
if cxx:
    config.available_features.add("host-cxx")
    config.substitutions.append(("%host-cxx", cxx))
