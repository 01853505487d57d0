"""Kernel project export: one launch of a jit kernel as a self-contained CANN Ascend C project.

The project is what an Ascend C engineer would write by hand for the kernel (CANN's documented
"kernel launch" layout, mirror-cann/asc-devkit@82b89a15f:examples/01_simd_cpp_api/02_features/04_compile/
00_basic_compile): the emitted kernel, a host program that moves the arrays through the ACL runtime and
launches with ``<<<blockDim, nullptr, stream>>>``, the ``find_package(ASC)`` CMake flow with
``--npu-arch`` for the target, the launch's input arrays and the simulator's outputs as golden data,
and a compare script. With ``-DASC2_TWIN=ON`` the same project builds on the host against the asc2
CPU twin (its Ascend C headers, ``asc2_twin::Launch`` and an ACL stand-in).

Runtime arguments stay runtime arguments: array sizes come from the input files, scalars and the block
count from the command line, each named after the kernel's Python parameter.
"""

import json
import os
import re
import shutil

from . import twin


SCHEMA = "asc2.kernel-project/1"

# The emitter's arch (first line of ascendc.cpp, "for c220") -> bisheng's --npu-arch
# (mirror-cann/asc-devkit@82b89a15f:examples/README.md, "npu-arch编译选项说明").
NPU_ARCH = {"c220": "dav-2201", "c310": "dav-3510"}
# The architecture whose bisheng fuses vector functions by default (--cce-simd-vf-fusion; cannmirror/asc-devkit@
# 0156b0f:examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_high_performance/README.md: "the compiler
# enables VF auto-fusion by default"). Huawei's samples pass the flag the same way, as an ASC compile option
# (cannmirror/asc-devkit@0da921b:examples/01_simd_cpp_api/00_introduction/04_reg_compute/add/CMakeLists.txt).
VF_FUSION_ARCH = "dav-3510"

# Per element type: (rtol, atol) of the compare script; integers and masks compare exactly. Float
# tolerances allow for a different summation order and transcendental implementation than the
# simulator's (the CPU twin, the NPU); CANN's own samples accept 1e-3 for float16.
TOLERANCES = {"float32": (1e-4, 1e-5), "float16": (1e-3, 1e-3), "bfloat16": (8e-3, 8e-3)}

# C++ keywords a Python parameter may be named after, and the host program's own names.
_RESERVED = {"auto", "bool", "break", "case", "catch", "char", "class", "const", "default", "delete", "do",
             "double", "enum", "explicit", "extern", "float", "friend", "goto", "inline", "int", "long",
             "mutable", "namespace", "new", "operator", "private", "protected", "public", "register",
             "short", "signed", "sizeof", "static", "struct", "switch", "template", "this", "throw",
             "typedef", "typename", "union", "unsigned", "using", "virtual", "void", "volatile",
             "argc", "argv", "main", "stream", "blockDim", "device"}

_SCALAR_CTYPES = {"index": "int64_t", "f32": "float", "i1": "bool"}


class ProjectError(RuntimeError):
    """The kernel cannot be exported (a clear reason in the user's terms)."""


class Argument:
    """One runtime parameter of the launch: an array (its bytes) or a scalar (its value)."""

    def __init__(self, name, kind, ctype, *, dtype=None, array=None, value=None):
        self.name = name  # the Python parameter
        self.cname = name + "_" if name in _RESERVED else name
        self.kind = kind  # "array" or "scalar"
        self.ctype = ctype
        self.dtype = dtype  # arrays: the kernel's element type name
        self.array = array
        self.value = value

    def describe(self):
        if self.kind == "array":
            return {"name": self.name, "kind": "array", "dtype": self.dtype, "storage": self.array.dtype.str,
                    "shape": list(self.array.shape), "bytes": int(self.array.nbytes)}
        return {"name": self.name, "kind": "scalar", "ctype": self.ctype, "value": self.value}

    def command_line_value(self):
        if self.ctype == "float":
            import numpy as np

            return str(np.float32(self.value))  # the shortest text strtof reads back as the kernel's float
        if self.ctype == "bool":
            return "1" if self.value else "0"
        return str(int(self.value))


def arguments(params, values):
    """The runtime arguments of a launch from the jit specialisation's params and launch values."""
    out = []
    runtime = [p for p in params if p.is_runtime]
    for p, v in zip(runtime, values):
        if p.kind == "pointer":
            out.append(Argument(p.name, "array", "uint8_t *", dtype=p.dtype.name, array=v))
        else:
            out.append(Argument(p.name, "scalar", _SCALAR_CTYPES[p.type], value=v))
    return out


def kernel_signature(ascendc, symbol):
    """The C parameter types of the emitted kernel ``symbol`` (GM_ADDR, int64_t, float, bool)."""
    try:
        found, params = twin.kernel_signature(ascendc)
    except twin.TwinError as e:
        raise ProjectError(str(e)) from None
    if found != symbol:
        raise ProjectError(f"the emitted Ascend C has no kernel entry named {symbol!r} (it defines {found!r})")
    return [ctype for ctype, _ in params]


def twin_dir():
    """The CPU twin's include directory (kernel_operator.h, asc2_twin/, acl/), as the Twin backend finds it."""
    try:
        return twin.include_dir()
    except RuntimeError as e:
        raise ProjectError(str(e)) from None


def _write(path, text):
    """Write only what changed: an NPU backend's cached build stays incremental."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


class Project:
    """The files of an exported kernel project (``write`` puts them in a directory)."""

    def __init__(self, *, kernel, symbol, ascendc, platform, block_num, args, source_file=None,
                 constexprs=None, golden=None, inline_code=False):
        self.kernel = kernel
        self.symbol = symbol
        self.ascendc = ascendc
        self.platform = platform
        self.block_num = int(block_num)
        self.args = args
        self.source_file = source_file
        self.constexprs = constexprs or {}
        self.golden = golden  # arrays after the simulator's run, by name; None: no golden data
        self.inline_code = inline_code  # the kernel holds asc2.inline / inline_vf code (not simulated)
        self.soc = twin.emitter_target(ascendc)
        if self.soc not in NPU_ARCH:
            raise ProjectError(f"{kernel}: no NPU architecture known for emitter target {self.soc!r}")
        ctypes = kernel_signature(ascendc, symbol)
        if len(ctypes) != len(args):
            raise ProjectError(f"{kernel}: the emitted kernel takes {len(ctypes)} parameters, the launch passes "
                               f"{len(args)} runtime arguments")
        for a, ctype in zip(args, ctypes):
            if (a.kind == "array") != (ctype == "GM_ADDR"):
                raise ProjectError(f"{kernel}: parameter {a.name!r} is {'an array' if a.kind == 'array' else 'a scalar'}"
                                   f" but the kernel takes {ctype}")
            if a.kind == "scalar":
                a.ctype = ctype

    @property
    def npu_arch(self):
        return NPU_ARCH[self.soc]

    @property
    def executable(self):
        return f"{self.kernel}_demo"

    @property
    def launcher(self):
        return f"asc2_launch_{self.kernel}"

    def run_arguments(self, device=None):
        """The host program's command line after the executable."""
        out = [] if device is None else ["--device", str(device)]
        out += ["--block_dim", str(self.block_num)]
        for a in self.args:
            if a.kind == "scalar":
                out += ["--" + a.name, a.command_line_value()]
        return out

    # -- files
    def write(self, path):
        os.makedirs(os.path.join(path, "input"), exist_ok=True)
        os.makedirs(os.path.join(path, "scripts"), exist_ok=True)
        _write(os.path.join(path, "ascendc.cpp"), self.ascendc)
        _write(os.path.join(path, "launch.h"), self.launch_header())
        _write(os.path.join(path, "launch.asc"), self.launch_source())
        _write(os.path.join(path, "main.cpp"), self.main_source())
        _write(os.path.join(path, "CMakeLists.txt"), self.cmake())
        _write(os.path.join(path, "README.md"), self.readme())
        _write(os.path.join(path, "kernel.json"), json.dumps(self.describe(), indent=2) + "\n")
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "project_files", "compare.py"),
                  encoding="utf-8") as f:
            _write(os.path.join(path, "scripts", "compare.py"), f.read())
        for a in self.args:
            if a.kind == "array":
                a.array.tofile(os.path.join(path, "input", a.name + ".bin"))
        golden_dir = os.path.join(path, "golden")
        shutil.rmtree(golden_dir, ignore_errors=True)
        if self.golden is not None:
            os.makedirs(golden_dir)
            for name, array in self.golden.items():
                array.tofile(os.path.join(golden_dir, name + ".bin"))
        return path

    def describe(self):
        return {"schema": SCHEMA, "kernel": self.kernel, "symbol": self.symbol, "platform": self.platform,
                "soc": self.soc, "npu_arch": self.npu_arch, "block_dim": self.block_num,
                "source_file": self.source_file,
                "constexprs": {k: repr(v) for k, v in self.constexprs.items()},
                "params": [a.describe() for a in self.args], "golden": self.golden is not None,
                "tolerances": {k: {"rtol": r, "atol": t} for k, (r, t) in TOLERANCES.items()},
                "run": [f"./build/{self.executable}", *self.run_arguments()]}

    def _c_params(self):
        return ", ".join(f"{'uint8_t *' if a.kind == 'array' else a.ctype + ' '}{a.cname}" for a in self.args)

    def launch_header(self):
        return f"""\
// The host-side launch of the asc2 kernel {self.kernel} (defined in launch.asc).
#pragma once

#include "acl/acl.h"

#include <cstdint>

/// Runs {self.symbol} on blockDim cores; the arrays are device memory (aclrtMalloc).
void {self.launcher}(uint32_t blockDim, aclrtStream stream{", " if self.args else ""}{self._c_params()});
"""

    def launch_source(self):
        names = ", ".join(a.cname for a in self.args)
        sep = ", " if self.args else ""
        return f"""\
// Launches {self.symbol}: with <<<>>> on an NPU (bisheng compiles this file as Ascend C), with
// asc2_twin::Launch on the host against the asc2 CPU twin (-DASC2_TWIN=ON: g++ compiles it as C++).
// The kernel is included, not compiled apart, so that the launch is in its translation unit
// (bisheng's default whole-program compilation).
#include "ascendc.cpp"

#include "launch.h"

#ifdef ASC2_TWIN
#include "asc2_twin/launch.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#endif

void {self.launcher}(uint32_t blockDim, aclrtStream stream{sep}{self._c_params()})
{{
#ifdef ASC2_TWIN
    (void)stream;
    try {{
        asc2_twin::Launch(blockDim, {self.symbol}{sep}{names});
    }} catch (const std::exception &e) {{  // what a device would report as a kernel exception
        std::fprintf(stderr, "{self.symbol} failed on the CPU twin: %s\\n", e.what());
        std::exit(1);
    }}
#else
    {self.symbol}<<<blockDim, nullptr, stream>>>({names});
#endif
}}
"""

    def main_source(self):
        arrays = [a for a in self.args if a.kind == "array"]
        scalars = [a for a in self.args if a.kind == "scalar"]
        parse = {"int64_t": "std::strtoll(text, &end, 10)", "float": "std::strtof(text, &end)",
                 "bool": "std::strtol(text, &end, 10) != 0"}
        usage = " ".join(f"--{a.name} {a.ctype.upper().replace('_T', '')}" for a in scalars)
        L = []
        L.append(f"""\
// Host program of the asc2 kernel project {self.kernel}: reads input/<array>.bin, launches the kernel
// through the ACL runtime and writes output/<array>.bin (compare them with scripts/compare.py).
//
//   ./build/{self.executable} [--device N] --block_dim N{(" " + usage) if usage else ""}
//
// Arrays take the size of their input file; scalars and the block count are named after the kernel's
// Python parameters. Every array is copied back: the kernel may write any of them.
#include "acl/acl.h"
#include "launch.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#define CHECK_ACL(call)                                                                \\
    do {{                                                                               \\
        const aclError status_ = (call);                                               \\
        if (status_ != ACL_SUCCESS) {{                                                  \\
            std::fprintf(stderr, "%s:%d: %s failed: error %d\\n", __FILE__, __LINE__, #call, \\
                         static_cast<int>(status_));                                   \\
            std::exit(1);                                                              \\
        }}                                                                              \\
    }} while (0)

namespace {{

struct Array {{
    const char *name;
    std::vector<char> bytes;
    void *host = nullptr;
    uint8_t *device = nullptr;
}};

void usage(const char *why)
{{
    std::fprintf(stderr, "{self.executable}: %s\\nusage: {self.executable} [--device N] --block_dim N{(" " + usage) if usage else ""}\\n", why);
    std::exit(2);
}}

bool readFile(const std::string &path, std::vector<char> &bytes)
{{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}}

bool writeFile(const std::string &path, const void *data, size_t size)
{{
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char *>(data), static_cast<std::streamsize>(size));
    return bool(out);
}}

// The kernel's scalar parameters, from the command line.
struct Scalars {{""")
        for a in scalars:
            L.append(f"    {a.ctype} {a.cname} = {{}};")
        L.append("""\
};

} // namespace

int main(int argc, char *argv[])
{
    int32_t device = 0;
    long long blockDimValue = -1;
    Scalars scalars;
    std::set<std::string> given;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc)
            usage(("missing value after " + flag).c_str());
        const char *text = argv[++i];
        char *end = nullptr;
        errno = 0;
        given.insert(flag);
        if (flag == "--device") {
            device = static_cast<int32_t>(std::strtol(text, &end, 10));
        } else if (flag == "--block_dim") {
            blockDimValue = std::strtoll(text, &end, 10);""")
        for a in scalars:
            L.append(f"""\
        }} else if (flag == "--{a.name}") {{
            scalars.{a.cname} = static_cast<{a.ctype}>({parse[a.ctype]});""")
        L.append("""\
        } else {
            usage(("unknown option " + flag).c_str());
        }
        if (end == text || *end != '\\0' || errno != 0)
            usage(("bad value for " + flag + ": " + text).c_str());
    }
    if (blockDimValue < 1 || blockDimValue > 65535)
        usage("--block_dim N (1..65535) is required");
    const uint32_t blockDim = static_cast<uint32_t>(blockDimValue);""")
        if scalars:
            names = ", ".join(f'"--{a.name}"' for a in scalars)
            L.append(f"""\
    for (const char *required : {{{names}}}) {{
        if (!given.count(required))
            usage((std::string(required) + " is required").c_str());
    }}""")
        init = ", ".join(f'{{"{a.name}"}}' for a in arrays)
        L.append(f"""
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(device));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<Array> arrays = {{{init}}};
    for (Array &a : arrays) {{
        const std::string path = std::string("input/") + a.name + ".bin";
        if (!readFile(path, a.bytes)) {{
            std::fprintf(stderr, "{self.executable}: cannot read %s (run from the project directory)\\n", path.c_str());
            return 1;
        }}
        // The runtime refuses empty allocations; a zero-size array still gets a (never read) buffer.
        const size_t bytes = a.bytes.empty() ? 32 : a.bytes.size();
        CHECK_ACL(aclrtMallocHost(&a.host, bytes));
        std::memcpy(a.host, a.bytes.data(), a.bytes.size());
        CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&a.device), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
        if (!a.bytes.empty())
            CHECK_ACL(aclrtMemcpy(a.device, bytes, a.host, a.bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    }}

    {self.launcher}(blockDim, stream""")
        # The launch call's argument list: arrays by position, scalars by name, in parameter order.
        call, index = [], 0
        for a in self.args:
            if a.kind == "array":
                call.append(f"arrays[{index}].device")
                index += 1
            else:
                call.append("scalars." + a.cname)
        L[-1] = L[-1] + "".join(", " + c for c in call) + ");"
        L.append("""\
    CHECK_ACL(aclrtSynchronizeStream(stream));

    mkdir("output", 0755);
    for (Array &a : arrays) {
        if (!a.bytes.empty())
            CHECK_ACL(aclrtMemcpy(a.host, a.bytes.size(), a.device, a.bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST));
        const std::string path = std::string("output/") + a.name + ".bin";
        if (!writeFile(path, a.host, a.bytes.size())) {
            std::fprintf(stderr, "%s: cannot write %s\\n", argv[0], path.c_str());
            return 1;
        }
        CHECK_ACL(aclrtFree(a.device));
        CHECK_ACL(aclrtFreeHost(a.host));
    }
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(device));
    CHECK_ACL(aclFinalize());
    std::printf("%s: ran on %u block(s); outputs in output/\\n", argv[0], blockDim);
    return 0;
}
""")
        return "\n".join(L)

    def cmake(self):
        return f"""\
# The asc2 kernel project {self.kernel} ({self.platform}, emitter target {self.soc}).
#
# NPU (CANN's Ascend C CMake flow, mirror-cann/asc-devkit@82b89a15f:docs/zh/guide/编程指南/编译与运行/
# 算子编译/AI-Core算子编译基本用法.md "CMake方式编译"): source <cann>/set_env.sh, then
#   cmake -S . -B build -DASC_DIR=$ASCEND_HOME_PATH/lib64/cmake && cmake --build build
# Host, against the asc2 CPU twin:
#   cmake -S . -B build-twin -DASC2_TWIN=ON && cmake --build build-twin
cmake_minimum_required(VERSION 3.16)

option(ASC2_TWIN "Build for the host against the asc2 CPU twin instead of an NPU" OFF)
set(ASC2_TWIN_DIR "{twin_dir()}" CACHE PATH
    "The asc2 CPU twin's headers (kernel_operator.h, asc2_twin/launch.h, acl/acl.h)")
set(CMAKE_ASC_ARCHITECTURES "{self.npu_arch}" CACHE STRING
    "NPU architecture: dav-2201 (Atlas A2/A3: Ascend910B, Ascend910_93), dav-3510 (Ascend950)")

if(NOT ASC2_TWIN)
  # CANN's asc-config.cmake ($ASCEND_HOME_PATH/lib64/cmake). A stand-in config may set ASC2_TWIN
  # instead (asc2's tests of the NPU backend build through it on machines without CANN).
  find_package(ASC REQUIRED)
endif()

set(CMAKE_CXX_STANDARD 17)
set(CMAKE_CXX_STANDARD_REQUIRED ON)

if(ASC2_TWIN)
  project({self.kernel}_project LANGUAGES CXX)
  if(NOT EXISTS "${{ASC2_TWIN_DIR}}/kernel_operator.h")
    message(FATAL_ERROR "ASC2_TWIN_DIR=${{ASC2_TWIN_DIR}} has no kernel_operator.h: point it at the asc2 "
                        "CPU twin's include directory (compiler/twin/include in the asc2 sources)")
  endif()
  # g++ knows no .asc: the file is C++ here (the twin defines what the Ascend C extensions mean).
  set_source_files_properties(launch.asc PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-xc++")
  add_executable({self.executable} launch.asc main.cpp)
  target_include_directories({self.executable} PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}} ${{ASC2_TWIN_DIR}})
  target_compile_definitions({self.executable} PRIVATE ASC2_TWIN)
  find_package(Threads REQUIRED)
  target_link_libraries({self.executable} PRIVATE Threads::Threads)
else()
  project({self.kernel}_project LANGUAGES ASC CXX)
  add_executable({self.executable} launch.asc main.cpp)
  set_target_properties({self.executable} PROPERTIES LINKER_LANGUAGE ASC)
  target_include_directories({self.executable} PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}} $ENV{{ASCEND_HOME_PATH}}/include)
  target_compile_options({self.executable} PRIVATE
    $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=${{CMAKE_ASC_ARCHITECTURES}}>){self._vf_fusion_cmake()}
endif()
"""

    def _vf_fusion_readme(self):
        if self.npu_arch != VF_FUSION_ARCH:
            return ""
        return ("\n\nThe build passes bisheng `--cce-simd-vf-fusion=false`: one vector function per Ascend C vector "
                "call, as the asc2 simulator timed it. `-DASC2_VF_FUSION=ON` lets bisheng fuse them (its own "
                "default), which changes the time by kernel (docs/simulator.md).")

    def _vf_fusion_cmake(self):
        """dav-3510 only: bisheng fuses consecutive vector functions unless told not to; the simulator timed
        one VF function per vector call, so the build does that unless ASC2_VF_FUSION is ON."""
        if self.npu_arch != VF_FUSION_ARCH:
            return ""
        return """
  # The asc2 simulator timed this kernel with one vector function (VF) per Ascend C vector call: bisheng's
  # --cce-simd-vf-fusion=false. Its default fuses them, which measured -27 % to +36 % on asc2-style kernels.
  option(ASC2_VF_FUSION "Let bisheng fuse vector functions (not what the asc2 simulator timed)" OFF)
  if(ASC2_VF_FUSION)
    target_compile_options({exe} PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--cce-simd-vf-fusion=true>)
  else()
    target_compile_options({exe} PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--cce-simd-vf-fusion=false>)
  endif()""".format(exe=self.executable)

    def readme(self):
        run = " ".join([f"./build/{self.executable}", *self.run_arguments()])
        run_twin = " ".join([f"./build-twin/{self.executable}", *self.run_arguments()])
        params = []
        for a in self.args:
            if a.kind == "array":
                params.append(f"| `{a.name}` | array | {a.dtype}, shape {tuple(a.array.shape)} | "
                              f"`input/{a.name}.bin` ({a.array.nbytes} bytes) |")
            else:
                params.append(f"| `{a.name}` | scalar | {a.ctype} | `--{a.name} {a.command_line_value()}` |")
        consts = ", ".join(f"`{k}={v!r}`" for k, v in self.constexprs.items()) or "none"
        golden = ("`golden/` holds every array after asc2's simulator ran this launch." if self.golden is not None else
                  "This export has no golden data (the arrays were not simulated"
                  + ("; the simulator cannot run the kernel's asc2.inline / inline_vf code" if self.inline_code else "")
                  + ").")
        return f"""\
# {self.kernel}: an Ascend C kernel project exported by asc2

The kernel `{self.kernel}`{f" of `{os.path.basename(self.source_file)}`" if self.source_file else ""}, compiled for
{self.platform} (emitter target {self.soc}, `--npu-arch={self.npu_arch}`), with the arguments of one launch
on {self.block_num} block(s). Compile-time constants baked into the kernel: {consts}.

| file | what |
|---|---|
| `ascendc.cpp` | the kernel as asc2 emitted it (symbol `{self.symbol}`) |
| `launch.asc`, `launch.h` | `{self.launcher}`: the `<<<blockDim, nullptr, stream>>>` launch (the CPU twin's `asc2_twin::Launch` with `-DASC2_TWIN=ON`) |
| `main.cpp` | host program: ACL init, device memory, copies in, launch, copies out to `output/` |
| `CMakeLists.txt` | CANN's Ascend C CMake flow (`find_package(ASC)`, `LANGUAGES ASC CXX`); `-DASC2_TWIN=ON` builds on the host |
| `input/`, `golden/` | every array's bytes before and after the launch |
| `scripts/compare.py` | compares `output/` with `golden/` (python3 + numpy; tolerance per dtype in `kernel.json`) |
| `kernel.json` | the launch: parameters, dtypes, shapes, scalar values, block count |

Runtime arguments (the kernel's Python parameters; arrays take the size of their input file):

| parameter | kind | type | passed as |
|---|---|---|---|
{chr(10).join(params)}

{golden}

## Build and run on an NPU (CANN)

```sh
source /usr/local/Ascend/cann/set_env.sh   # your CANN install: sets ASCEND_HOME_PATH
cmake -S . -B build -DASC_DIR=$ASCEND_HOME_PATH/lib64/cmake -DCMAKE_ASC_ARCHITECTURES={self.npu_arch}
cmake --build build -j
{run}
python3 scripts/compare.py
```

Profile it with `msprof op --output=msprof {run}` and open the directory in the asc2 workbench's
Profile view (Import).{self._vf_fusion_readme()}

## Build and run on the host, against the asc2 CPU twin

```sh
cmake -S . -B build-twin -DASC2_TWIN=ON
cmake --build build-twin -j
{run_twin}
python3 scripts/compare.py
```

`ASC2_TWIN_DIR` (a CMake cache variable) is where the twin's headers are; it defaults to the asc2 build
that exported the project (`-DASC2_TWIN_DIR=<asc2>/compiler/twin/include` elsewhere).
"""


def for_launch(kernel, compiled, spec, block_num, values, golden=None):
    """The Project of one launch of jit ``kernel`` (a JITFunction) with the launch's ``values``
    (C-contiguous arrays and scalars, in runtime-parameter order) and optionally its results."""
    report = compiled.report(include_ir=False)
    args = arguments(spec.params, values)
    golden_arrays = None
    if golden is not None:
        golden_arrays = {a.name: g for a, g in zip(args, golden) if a.kind == "array"}
    return Project(kernel=kernel.__name__, symbol=report.get("kernel_symbol") or report.get("kernel") or kernel.__name__,
                   ascendc=compiled.ascendc, platform=report.get("target") or spec.key_parts["platform"],
                   block_num=block_num, args=args, source_file=kernel.source.file,
                   constexprs={p.name: p.value for p in spec.params if p.kind == "constexpr"}, golden=golden_arrays,
                   inline_code=bool(compiled.inline_code))


def export(path, kernel, compiled, spec, block_num, inputs, outputs):
    """Write the project of a simulated launch: ``inputs`` before it, ``outputs`` (golden) after it."""
    for_launch(kernel, compiled, spec, block_num, inputs, golden=outputs).write(path)
    return path


_exported = set()


def wants_export(root, kernel):
    """Whether $ASC2_EXPORT_PROJECT=root still wants this launch of ``kernel`` (its first)."""
    if (os.path.abspath(root), kernel.__name__) not in _exported:
        return True
    import sys

    print(f"asc2: {kernel.__name__} launched again; {os.path.join(root, kernel.__name__)} keeps its first launch",
          file=sys.stderr)
    return False


def export_first_launch(root, kernel, compiled, spec, block_num, inputs, outputs):
    """$ASC2_EXPORT_PROJECT (``asc2-workbench --export-project DIR``): the first launch of each kernel of
    the run becomes ``DIR/<kernel>/`` (``wants_export`` tells the later ones apart)."""
    import sys

    path = os.path.join(root, kernel.__name__)
    _exported.add((os.path.abspath(root), kernel.__name__))
    export(path, kernel, compiled, spec, block_num, inputs, outputs)
    print(f"asc2: exported {kernel.__name__} to {path} (build and run: {os.path.join(path, 'README.md')})",
          file=sys.stderr)
    return path
