//===- EmuBackend.cpp - Running the emitted CUDA on the CPU ---------------===//
//
// Compile: the source, then `SCHED_EMU_ENTRY(<kernel>)` (the object's entry
// points, sched_cuda_emu.h), is written to the cache directory and compiled
// by `$SCHED_EMU_CXX -std=c++17 -O1 -ffp-contract=off -fPIC` with
// sched_cuda_emu.h as a precompiled header and -I <headers>/include (which
// holds the cuda_fp16.h and mma.h the source names). No contraction: the
// plain host build, which emu is compared with, contracts nothing either.
// Every output is written under a temporary name and renamed, so that
// processes that compile the same kernel at once (a parallel test run)
// never load a partial file.
// Load: dlopen, then sched_emu_bind hands the object the scheduler's API
// and returns where its registers and shared memory are.
// Launch: the grid and block from the descriptor (the launcher's geometry
// evaluation, as the cuda backend does it), buffers as their host pointers.
//
//===----------------------------------------------------------------------===//

#include "EmuBackend.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef SCHED_EMU_INCLUDE_DIR
#error "SCHED_EMU_INCLUDE_DIR must name runtime/emu of the source tree"
#endif

namespace sched {
namespace emu {

struct CompiledKernel {
  void *Handle = nullptr;
  sched_emu_kernel_fn Kernel = nullptr;
  sched_emu_module Module = {};
  std::string Error;
};

namespace {

std::string envOr(const char *Name, const std::string &Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::string(V) : Default;
}

/// The emulation headers installed beside libsched_runtime.so
/// (P/lib/libsched_runtime.so -> P/share/sched/emu), when this code runs
/// from that shared library; "" in a program that linked the archive (whose
/// installed copy names its prefix itself) and in the build tree.
std::string headersBesideSharedRuntime() {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&headersBesideSharedRuntime), &Info) || !Info.dli_fname)
    return "";
  std::string Module = Info.dli_fname;
  size_t Slash = Module.rfind('/');
  if (Slash == std::string::npos ||
      Module.compare(Slash + 1, std::strlen("libsched_runtime.so"), "libsched_runtime.so") != 0)
    return "";
  std::string Dir = Module.substr(0, Slash) + "/../share/sched/emu";
  struct stat St;
  return stat((Dir + "/sched_cuda_emu.h").c_str(), &St) == 0 ? Dir : "";
}

std::string includeDir() {
  static const std::string Beside = headersBesideSharedRuntime();
  return envOr("SCHED_EMU_INCLUDE", Beside.empty() ? std::string(SCHED_EMU_INCLUDE_DIR) : Beside);
}

std::string cacheDir() {
  std::string Tmp = envOr("TMPDIR", "/tmp");
  return envOr("SCHED_EMU_CACHE", Tmp + "/sched-emu-" + std::to_string(getuid()));
}

bool readFile(const std::string &Path, std::string &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::ostringstream S;
  S << In.rdbuf();
  Out = S.str();
  return true;
}

bool writeFile(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
  return static_cast<bool>(Out.flush());
}

/// mkdir -p.
bool makeDirs(const std::string &Dir) {
  for (size_t Pos = 1; Pos <= Dir.size(); ++Pos)
    if (Pos == Dir.size() || Dir[Pos] == '/') {
      std::string Prefix = Dir.substr(0, Pos);
      if (mkdir(Prefix.c_str(), 0777) != 0 && errno != EEXIST)
        return false;
    }
  return true;
}

uint64_t fnv1a(const std::string &Text, uint64_t H = 1469598103934665603ull) {
  for (unsigned char C : Text)
    H = (H ^ C) * 1099511628211ull;
  return H;
}

std::vector<std::string> words(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream S(Text);
  for (std::string W; S >> W;)
    Out.push_back(W);
  return Out;
}

/// Runs Argv with stdout and stderr into LogPath; the exit status, or -1.
int runCompiler(const std::vector<std::string> &Argv, const std::string &LogPath,
                std::string &Error) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, LogPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  std::vector<char *> Args;
  for (const std::string &A : Argv)
    Args.push_back(const_cast<char *>(A.c_str()));
  Args.push_back(nullptr);
  pid_t Pid;
  int Rc = posix_spawnp(&Pid, Args[0], &Actions, nullptr, Args.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Rc != 0) {
    Error =
        "cannot run the compiler '" + Argv[0] + "': " + std::strerror(Rc) + " (set SCHED_EMU_CXX)";
    return -1;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0)
    if (errno != EINTR) {
      Error = std::string("waitpid: ") + std::strerror(errno);
      return -1;
    }
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

/// The first lines of a compiler log, for an error message.
std::string headOf(const std::string &Log, int Lines) {
  std::string Out;
  std::istringstream S(Log);
  std::string Line;
  for (int I = 0; I < Lines && std::getline(S, Line); ++I)
    Out += "\n  " + Line;
  return Out;
}

/// Runs the compiler into Output through a temporary file renamed at the
/// end, so that a process never sees another's partial output. Error holds
/// the compiler's first lines when it fails.
bool compileTo(std::vector<std::string> Argv, const std::string &Output, const std::string &What,
               std::string &Error) {
  std::string Unique = "." + std::to_string(getpid()) + ".tmp";
  std::string Log = Output + Unique + ".log", Partial = Output + Unique;
  Argv.insert(Argv.end(), {"-o", Partial});
  int Rc = runCompiler(Argv, Log, Error);
  std::string Text;
  readFile(Log, Text);
  std::remove(Log.c_str());
  if (Rc != 0) {
    std::remove(Partial.c_str());
    if (Rc > 0)
      Error = "cannot compile " + What + " for emu (" + Argv[0] + " exit " + std::to_string(Rc) +
              "):" + headOf(Text, 20);
    return false;
  }
  if (std::rename(Partial.c_str(), Output.c_str()) != 0) {
    Error = "cannot write '" + Output + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

std::string hexOf(uint64_t V) {
  char Hex[17];
  std::snprintf(Hex, sizeof(Hex), "%016llx", static_cast<unsigned long long>(V));
  return Hex;
}

/// Builds (or finds in the cache) the object of Source and returns its path.
/// The header is precompiled once per compiler, header text and header
/// path (most of a kernel's compile time is otherwise the C++ headers), and
/// the object links no C++ library: dlopen resolves libm's and libc's
/// functions in the program, which has them (the runtime is C++), and libgcc
/// is linked in for the half conversions.
bool buildObject(const std::string &Source, const std::string &KernelName, std::string &Path,
                 std::string &Error) {
  std::string Inc = includeDir();
  std::string Header = Inc + "/sched_cuda_emu.h";
  std::string HeaderText, AbiText;
  if (!readFile(Header, HeaderText) || !readFile(Inc + "/sched_emu_abi.h", AbiText)) {
    Error = "cannot read the CUDA emulation headers in '" + Inc + "' (set SCHED_EMU_INCLUDE)";
    return false;
  }
  std::vector<std::string> Argv = words(envOr("SCHED_EMU_CXX", "clang++-19"));
  if (Argv.empty())
    Argv.push_back("clang++-19");
  for (const char *Flag :
       {"-std=c++17", "-O1", "-ffp-contract=off", "-fno-exceptions", "-w", "-fPIC"})
    Argv.push_back(Flag);
  // The header's path too: a precompiled header names the file it was made
  // from, and clang refuses it once that file is gone (another checkout's
  // copy of the same text, since removed).
  std::string Key = Header + '\0';
  for (const std::string &A : Argv)
    Key += A + '\0';
  uint64_t HeaderHash = fnv1a(HeaderText, fnv1a(AbiText, fnv1a(Key)));
  std::string Dir = cacheDir();
  std::string Text = Source + "\nSCHED_EMU_ENTRY(" + KernelName + ")\n";
  std::string Base = Dir + "/" + KernelName + "-" + hexOf(fnv1a(Text, HeaderHash));
  Path = Base + ".so";
  if (access(Path.c_str(), R_OK) == 0)
    return true;
  if (!makeDirs(Dir)) {
    Error = "cannot create the emu cache directory '" + Dir + "': " + std::strerror(errno);
    return false;
  }
  std::string Pch = Dir + "/sched_cuda_emu-" + hexOf(HeaderHash) + ".pch";
  const std::vector<std::string> Compile = Argv;
  auto BuildPch = [&] {
    std::vector<std::string> PchArgv = Compile;
    // No timestamp: the name already says which header text it holds.
    PchArgv.insert(PchArgv.end(), {"-Xclang", "-fno-pch-timestamp", "-x", "c++-header", Header});
    return compileTo(PchArgv, Pch, "the CUDA emulation header", Error);
  };
  if (access(Pch.c_str(), R_OK) != 0 && !BuildPch())
    return false;
  std::string SourcePath = Base + ".cpp";
  std::string Unique = "." + std::to_string(getpid()) + ".tmp";
  if (!writeFile(SourcePath + Unique, Text) ||
      std::rename((SourcePath + Unique).c_str(), SourcePath.c_str()) != 0) {
    Error = "cannot write '" + SourcePath + "'";
    return false;
  }
  Argv.insert(Argv.end(), {"-include-pch", Pch, "-I", Inc + "/include", "-x", "c++", SourcePath,
                           "-shared", "-nostdlib", "-lgcc"});
  std::string What = "the emitted CUDA ('" + SourcePath + "')";
  if (compileTo(Argv, Path, What, Error))
    return true;
  // A header precompiled by another build of the same compiler name (an
  // upgraded clang) is refused: build it again, once.
  if (Error.find("precompiled header") == std::string::npos &&
      Error.find("PCH file") == std::string::npos)
    return false;
  std::remove(Pch.c_str());
  Error.clear();
  return BuildPch() && compileTo(Argv, Path, What, Error);
}

struct ThreadBody {
  sched_emu_kernel_fn Kernel;
  void **Args;
};

void runThread(void *Context) {
  const ThreadBody &B = *static_cast<const ThreadBody *>(Context);
  B.Kernel(B.Args);
  // No tail call: the kernel's frame (and a leaf kernel's red zone) must
  // start below this frame, in stack poisoned for the block, not over what
  // this frame saved before jumping.
  asm volatile("" : : : "memory");
}

} // namespace

std::shared_ptr<CompiledKernel> compileKernel(const std::string &Source,
                                              const std::string &KernelName) {
  auto K = std::make_shared<CompiledKernel>();
  std::string Path;
  if (!buildObject(Source, KernelName, Path, K->Error))
    return K;
  K->Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!K->Handle) {
    const char *Why = dlerror();
    K->Error = "cannot load '" + Path + "': " + (Why ? Why : "dlopen failed");
    return K;
  }
  auto Bind = reinterpret_cast<sched_emu_bind_fn>(dlsym(K->Handle, "sched_emu_bind"));
  K->Kernel = reinterpret_cast<sched_emu_kernel_fn>(dlsym(K->Handle, "sched_emu_kernel"));
  if (!Bind || !K->Kernel) {
    K->Error = "'" + Path + "' has no sched_emu_bind or sched_emu_kernel";
    return K;
  }
  Bind(&schedulerApi(), &K->Module);
  if (K->Module.version != SCHED_EMU_ABI_VERSION || !K->Module.regs)
    K->Error = "'" + Path + "' was built for another version of the emu runtime";
  return K;
}

const std::string &compileError(const CompiledKernel &K) { return K.Error; }

bool runKernel(const CompiledKernel &K, const unsigned Grid[3], const unsigned Block[3],
               void **Args, EmuStats &Stats, std::string &Error,
               std::vector<std::pair<const char *, const char *>> Regions) {
  if (!K.Error.empty()) {
    Error = K.Error;
    return false;
  }
  ThreadBody Body = {K.Kernel, Args};
  KernelImage Image;
  Image.Regs = K.Module.regs;
  Image.SharedBegin = K.Module.shared_begin;
  Image.SharedEnd = K.Module.shared_end;
  Image.Body = &runThread;
  Image.Context = &Body;
  Image.Regions = std::move(Regions);
  auto Start = std::chrono::steady_clock::now();
  bool Ok = runGrid(Image, Grid, Block, Stats, Error);
  Stats.Milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  return Ok;
}

bool launch(const LaunchPlan &D, KernelCache &Cache, const std::vector<void *> &ParamData,
            EmuStats &Stats, std::string &Error, bool &Touched) {
  Touched = false;
  if (D.Payload.empty()) {
    Error = "the launch descriptor has no CUDA source";
    return false;
  }
  if (ParamData.size() != D.Params.size()) {
    Error = "wrong number of kernel arguments";
    return false;
  }
  std::shared_ptr<CompiledKernel> K;
  {
    std::lock_guard<std::mutex> Guard(Cache.Lock);
    if (!Cache.Kernel)
      Cache.Kernel = compileKernel(D.Payload, D.Kernel);
    K = Cache.Kernel;
  }
  if (!K->Error.empty()) {
    Error = K->Error;
    return false;
  }
  const std::vector<int64_t> Values = D.scalarValues(ParamData);
  int64_t Grid[3], Block[3];
  bool Empty = false;
  if (!D.geometry(Values, Grid, Block, Empty, Error))
    return false;
  if (Empty)
    return true;
  // cuLaunchKernel's arguments: the address of each parameter's value, a
  // buffer's value being its (host) pointer. And each buffer's region, which
  // the cuda backend would place at an aligned device address.
  std::vector<void *> Pointers(ParamData), Args(D.Params.size());
  std::vector<std::pair<const char *, const char *>> Regions;
  for (size_t I = 0; I < D.Params.size(); ++I) {
    const LaunchPlan::Param &P = D.Params[I];
    Args[I] = P.IsBuffer ? &Pointers[I] : ParamData[I];
    uintptr_t Begin, End;
    if (!P.HasRegion)
      continue;
    if (!D.regionBytes(I, Values, ParamData[I], Begin, End, Error))
      return false;
    if (!ParamData[I])
      continue; // null, and the kernel touches none of it
    Regions.push_back({reinterpret_cast<const char *>(Begin), reinterpret_cast<const char *>(End)});
  }
  unsigned G[3], B[3];
  for (int Dim = 0; Dim < 3; ++Dim)
    G[Dim] = static_cast<unsigned>(Grid[Dim]), B[Dim] = static_cast<unsigned>(Block[Dim]);
  // From here the kernel runs on the program's own arrays.
  Touched = true;
  return runKernel(*K, G, B, Args.data(), Stats, Error, std::move(Regions));
}

} // namespace emu
} // namespace sched
