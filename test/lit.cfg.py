# lit configuration for sched. Substitutions:
#   %clangxx        clang++-19
#   %plugin         -fplugin=<build>/lib/SchedPlugin.so
#   %sched_cc       %clangxx -std=c++17 %plugin   (compile with the plugin)
#   %sched_link     -L<build>/lib -Wl,-rpath,<build>/lib -lsched_runtime (link a
#                   plugin-built program with the shared runtime)
#   %clang_c        clang-19, the C compiler beside %clangxx
#   %sched_c        %clang_c %plugin                (compile C with the plugin)
#   %sched-opt      the pipeline driver on textual IR
#   %nvcc           nvcc (the `nvcc` feature is set when it exists)
#   %cuda_stub_driver  the CUDA toolkit's stub libcuda.so (the `cuda-stub-driver`
#                   feature is set when the toolkit has one)
#   %bench          the bench/ directory (its scripts)
#   %sched_build    the build directory (what bench scripts take as BUILD_DIR)
#   %cmake          the cmake that configured the build (test/package installs
#                   the build with it and configures projects that use it);
#                   features gxx, pkg-config, clang14 and distcc when g++,
#                   pkg-config, clang++-14 and distccd exist
import glob
import os
import shutil
import lit.formats

config.name = "sched"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".c", ".ir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "launch"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.sched_obj_root, "test")

lib = os.path.join(config.sched_obj_root, "lib")
bindir = os.path.join(config.sched_obj_root, "bin")
plugin = "-fplugin=" + os.path.join(lib, "SchedPlugin.so")
config.substitutions.append(("%sched_cc", config.clangxx + " -std=c++17 " + plugin))
config.substitutions.append(("%sched_link", "-L" + lib + " -Wl,-rpath," + lib + " -lsched_runtime"))
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%clangxx", config.clangxx))
clang_c = os.path.join(os.path.dirname(config.clangxx),
                       os.path.basename(config.clangxx).replace("clang++", "clang"))
config.substitutions.append(("%sched_c ", clang_c + " " + plugin + " "))
config.substitutions.append(("%clang_c", clang_c))
config.substitutions.append(("%sched-opt", os.path.join(bindir, "sched-opt")))
config.substitutions.append(("%examples", os.path.join(config.sched_src_root, "examples")))
config.substitutions.append(("%bench", os.path.join(config.sched_src_root, "bench")))
config.substitutions.append(("%sched_build", config.sched_obj_root))
config.substitutions.append(("%cmake", config.cmake))
config.substitutions.append(("%nvcc", config.nvcc or "nvcc"))
config.substitutions.append(("%cuda_home", config.cuda_home))

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, bindir, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["HOME"] = os.environ.get("HOME", "/tmp")
# SCHED_BACKEND=emu compiles each kernel once into this cache (per source
# hash), so the tests that run one kernel many times compile it once.
config.environment["SCHED_EMU_CACHE"] = os.path.join(config.sched_obj_root, "test", "emu-cache")
# SCHED_CHECK_FAST_DEPENDENCE (IntegerSystem.h): every answer the dependence
# analysis's fast paths give (cheap pre-tests, remembered answers) is checked
# against the exact path; a difference aborts the compile. Set it in the
# environment or with `--param check_fast_dependence=1` (the ctest
# lit-check-fast-dependence runs the dependence-heavy folders so).
check_fast = lit_config.params.get("check_fast_dependence",
                                   os.environ.get("SCHED_CHECK_FAST_DEPENDENCE", ""))
if check_fast and check_fast != "0":
    config.environment["SCHED_CHECK_FAST_DEPENDENCE"] = "1"
for tool, feature in (("g++", "gxx"), ("pkg-config", "pkg-config"), ("clang++-14", "clang14"),
                      ("distccd", "distcc")):
    if shutil.which(tool):
        config.available_features.add(feature)
if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")

# NVRTC, with which the plugin compiles each kernel into the program
# (-fplugin-arg-sched-embed) and the cuda backend compiles the rest.
if glob.glob(os.path.join(config.cuda_home, "lib*", "libnvrtc.so*")):
    config.available_features.add("nvrtc")
# ptxas, which -fplugin-arg-sched-report runs on each kernel's PTX.
if os.access(os.path.join(config.cuda_home, "bin", "ptxas"), os.X_OK):
    config.available_features.add("ptxas")

# The toolkit's stub driver: a libcuda.so that loads but fails every call with
# CUDA_ERROR_STUB_LIBRARY, the machine whose driver cannot initialise.
cuda_stubs = [os.path.join(config.cuda_home, d, "stubs", "libcuda.so") for d in ("lib64", "lib")]
cuda_stubs += sorted(glob.glob(os.path.join(config.cuda_home, "targets", "*", "lib", "stubs",
                                            "libcuda.so")))
cuda_stub = next((s for s in cuda_stubs if os.path.exists(s)), None)
if cuda_stub:
    config.available_features.add("cuda-stub-driver")
    config.substitutions.append(("%cuda_stub_driver", cuda_stub))
