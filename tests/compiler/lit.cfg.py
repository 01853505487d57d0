# lit configuration for the compiler's IR-in, IR-out tests.
import os
import lit.formats

config.name = "asc2-compiler"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = config.asc2_test_source
config.test_exec_root = os.path.join(os.path.dirname(__file__))
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in"]
config.environment["PATH"] = os.pathsep.join(
    [config.asc2_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%asc2-opt", os.path.join(config.asc2_tools_dir, "asc2-opt")))
