//===- KernelReport.cpp - What each kernel costs, measured by ptxas -------===//
//
// See KernelReport.h. ptxas runs as a child process on a temporary PTX file,
// its verbose output (stdout and stderr as one stream) read back and parsed.
//
//===----------------------------------------------------------------------===//
#include "KernelReport.h"

#include "EmbedKernels.h"
#include "cuda/Nvrtc.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace sched {
namespace {

/// The number right before Word in Line ("40 registers" for "registers");
/// -1 where Word is not there or no number precedes it.
int64_t numberBefore(llvm::StringRef Line, llvm::StringRef Word) {
  size_t At = Line.find(Word);
  if (At == llvm::StringRef::npos)
    return -1;
  llvm::StringRef Before = Line.take_front(At).rtrim();
  size_t Last = Before.find_last_not_of("0123456789");
  llvm::StringRef Digits = Last == llvm::StringRef::npos ? Before : Before.drop_front(Last + 1);
  int64_t Value;
  if (Digits.empty() || Digits.getAsInteger(10, Value))
    return -1;
  return Value;
}

void setIfPresent(int64_t Found, int64_t &Field) {
  if (Found >= 0)
    Field = Found;
}

std::string findPtxas(std::string &Error) {
  if (const char *Env = std::getenv("SCHED_PTXAS"); Env && *Env) {
    if (llvm::sys::fs::can_execute(Env))
      return Env;
    Error = "SCHED_PTXAS names '" + std::string(Env) + "', which is not a program";
    return "";
  }
  llvm::SmallString<256> InToolkit(cuda::cudaHome());
  llvm::sys::path::append(InToolkit, "bin", "ptxas");
  if (llvm::sys::fs::can_execute(InToolkit))
    return std::string(InToolkit);
  if (llvm::ErrorOr<std::string> OnPath = llvm::sys::findProgramByName("ptxas"))
    return *OnPath;
  Error = "no ptxas (not at " + std::string(InToolkit) +
          " nor on PATH; set SCHED_CUDA_HOME to the CUDA toolkit or SCHED_PTXAS to ptxas)";
  return "";
}

/// Runs `Ptxas -arch=Arch -v` on Ptx; its output in Output.
bool runPtxas(const std::string &Ptxas, const std::string &Ptx, const std::string &Arch,
              std::string &Output, std::string &Error) {
  llvm::SmallString<128> PtxPath, LogPath;
  if (llvm::sys::fs::createTemporaryFile("sched-report", "ptx", PtxPath) ||
      llvm::sys::fs::createTemporaryFile("sched-report", "log", LogPath)) {
    Error = "cannot create a temporary file for ptxas";
    return false;
  }
  llvm::FileRemover RemovePtx(PtxPath), RemoveLog(LogPath);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(PtxPath, EC);
    if (EC) {
      Error = "cannot write '" + std::string(PtxPath) + "': " + EC.message();
      return false;
    }
    OS << Ptx;
  }
  std::string ArchFlag = "-arch=" + Arch;
  llvm::StringRef Args[] = {Ptxas, ArchFlag, "-v", PtxPath, "-o", "/dev/null"};
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, llvm::StringRef(LogPath),
                                                llvm::StringRef(LogPath)};
  std::string RunError;
  int Status = llvm::sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects, 0, 0, &RunError);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Log = llvm::MemoryBuffer::getFile(LogPath);
  Output = Log ? (*Log)->getBuffer().str() : std::string();
  if (Status != 0) {
    Error = Ptxas + " " + ArchFlag + " failed" + (RunError.empty() ? "" : ": " + RunError) +
            (Output.empty() ? "" : ":\n" + llvm::StringRef(Output).rtrim().str());
    return false;
  }
  return true;
}

} // namespace

std::vector<KernelResources> parsePtxasVerbose(llvm::StringRef Text) {
  std::vector<KernelResources> Out;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    // ptxas info    : Compiling entry function 'k' for 'sm_80'
    size_t At = Line.find("Compiling entry function '");
    if (At != llvm::StringRef::npos) {
      llvm::StringRef Rest = Line.drop_front(At + std::strlen("Compiling entry function '"));
      KernelResources R;
      R.Kernel = Rest.take_until([](char C) { return C == '\''; }).str();
      size_t ForAt = Rest.find("for '");
      if (ForAt != llvm::StringRef::npos)
        R.Arch = Rest.drop_front(ForAt + 5).take_until([](char C) { return C == '\''; }).str();
      Out.push_back(R);
      continue;
    }
    if (Out.empty())
      continue;
    KernelResources &R = Out.back();
    // 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    setIfPresent(numberBefore(Line, "bytes stack frame"), R.StackBytes);
    setIfPresent(numberBefore(Line, "bytes spill stores"), R.SpillStoreBytes);
    setIfPresent(numberBefore(Line, "bytes spill loads"), R.SpillLoadBytes);
    // ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem, 360 bytes cmem[0]
    int64_t Registers = numberBefore(Line, "registers");
    if (Registers >= 0 && Line.contains("Used "))
      R.Registers = static_cast<int>(Registers);
    setIfPresent(numberBefore(Line, "bytes smem"), R.SharedBytes);
  }
  return Out;
}

std::string describe(const KernelResources &R) {
  return "kernel '" + R.Kernel + "' for " + R.Arch + ": " + std::to_string(R.Registers) +
         " registers, " + std::to_string(R.SpillStoreBytes) + " bytes spill stores, " +
         std::to_string(R.SpillLoadBytes) + " bytes spill loads, " +
         std::to_string(R.StackBytes) + " bytes stack, " + std::to_string(R.SharedBytes) +
         " bytes shared";
}

bool measureKernelResources(const LaunchDescriptor &D, const PluginOptions &Opts,
                            std::vector<KernelResources> &Out, std::string &Error) {
  if (D.Runner != RunnerKind::Kernel || D.Payload.empty())
    return true;
  std::string Ptxas = findPtxas(Error);
  if (Ptxas.empty())
    return false;
  for (const TargetArch &Arch : buildTimeArchs(D, Opts)) {
    std::string Virtual = virtualArch(Arch);
    std::string Ptx;
    for (const LaunchPlan::Image &I : D.Images)
      if (I.Arch == Virtual)
        Ptx = I.Ptx;
    if (Ptx.empty()) {
      std::string NoNvrtc;
      if (!cuda::nvrtc(NoNvrtc)) {
        Error = "no NVRTC to compile the kernel to PTX: " + NoNvrtc;
        return false;
      }
      if (!compileKernelToPtx(D, Virtual, Ptx, Error)) {
        Error = "cannot compile the kernel for " + Virtual + ": " + Error;
        return false;
      }
    }
    std::string Output;
    if (!runPtxas(Ptxas, Ptx, Arch.name(), Output, Error))
      return false;
    std::vector<KernelResources> Kernels = parsePtxasVerbose(Output);
    if (Kernels.empty()) {
      Error = Ptxas + " -arch=" + Arch.name() + " -v printed no kernel";
      return false;
    }
    Out.insert(Out.end(), Kernels.begin(), Kernels.end());
  }
  return true;
}

} // namespace sched
