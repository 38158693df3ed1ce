//===- EmuScheduler.cpp - CUDA blocks as fibers on one OS thread ----------===//
//
// See EmuScheduler.h for the model. The pieces:
//  - Context: a fiber's saved registers. On x86-64 a switch pushes the
//    callee-saved registers, swaps the stack pointer and pops (no system
//    call, unlike glibc's swapcontext, which saves the signal mask); a new
//    fiber's stack starts with a frame that `ret`s into a trampoline calling
//    fiberMain. Elsewhere ucontext does the same, more slowly.
//  - StackPool: one mmap'ed stack per thread of the largest block so far,
//    each above a PROT_NONE guard page (an overflow faults instead of
//    writing into the neighbour's stack), kept for the process.
//  - Launch: one grid. The main context runs the ready fibers round-robin;
//    a fiber switches back when it waits or finishes. When no fiber is
//    ready, either every live thread waits at the same barrier (released),
//    or the block is stuck (an error saying who waits where).
// AddressSanitizer is told about every switch, so the runtime's own tests
// run under it.
//
//===----------------------------------------------------------------------===//

#include "EmuScheduler.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCHED_EMU_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SCHED_EMU_ASAN 1
#endif
#ifdef SCHED_EMU_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

#if !defined(__x86_64__) || defined(SCHED_EMU_UCONTEXT)
#define SCHED_EMU_USE_UCONTEXT 1
#include <ucontext.h>
#endif

namespace sched {
namespace emu {

namespace {

void fiberMain();
#ifdef SCHED_EMU_ASAN
void fiberEnter();
#endif

//===--- Contexts ---------------------------------------------------------===//

#ifndef SCHED_EMU_USE_UCONTEXT
extern "C" void sched_emu_switch_context(void **SaveSp, void *LoadSp);
extern "C" void sched_emu_fiber_start();

// System V x86-64: rbx, rbp, r12-r15 are callee-saved; the rest of the
// caller's state is dead across the call by the ABI. A new fiber's frame
// holds fiberMain in r13 and returns into sched_emu_fiber_start with rsp
// 16-byte aligned, as a call needs; the trampoline poisons that frame
// again, since the kernel's locals (a leaf's red zone) may lie there. r14,
// when not null, is called first with the stack 128 KiB deeper, far below
// where the kernel's frames will be (AddressSanitizer's fiber bookkeeping,
// which must run first on a new stack and would otherwise leave its frames
// where the kernel's locals then lie).
asm(R"(
  .pushsection .text
  .p2align 4
  .globl sched_emu_switch_context
  .hidden sched_emu_switch_context
  .type sched_emu_switch_context, @function
sched_emu_switch_context:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  retq
  .size sched_emu_switch_context, .-sched_emu_switch_context
  .p2align 4
  .globl sched_emu_fiber_start
  .hidden sched_emu_fiber_start
  .type sched_emu_fiber_start, @function
sched_emu_fiber_start:
  testq %r14, %r14
  jz 1f
  movq %rsp, %rbx
  subq $131072, %rsp
  callq *%r14
  movq %rbx, %rsp
1:
  movq $-1, %rax
  movq %rax, -8(%rsp)
  movq %rax, -16(%rsp)
  movq %rax, -24(%rsp)
  movq %rax, -32(%rsp)
  movq %rax, -40(%rsp)
  movq %rax, -48(%rsp)
  movq %rax, -56(%rsp)
  callq *%r13
  ud2
  .size sched_emu_fiber_start, .-sched_emu_fiber_start
  .popsection
)");

struct Context {
  void *Sp = nullptr;
};

void makeContext(Context &C, char *Bottom, char *Top) {
  (void)Bottom;
  void **Frame = reinterpret_cast<void **>(Top);
  Frame[-1] = reinterpret_cast<void *>(&sched_emu_fiber_start); // ret address
  Frame[-2] = nullptr;                                          // rbp
  Frame[-3] = nullptr;                                          // rbx
  Frame[-4] = nullptr;                                          // r12
  Frame[-5] = reinterpret_cast<void *>(&fiberMain);             // r13
#ifdef SCHED_EMU_ASAN
  Frame[-6] = reinterpret_cast<void *>(&fiberEnter); // r14
#else
  Frame[-6] = nullptr; // r14
#endif
  Frame[-7] = nullptr; // r15
  C.Sp = Frame - 7;
}

void switchContext(Context &From, Context &To) { sched_emu_switch_context(&From.Sp, To.Sp); }
#else
struct Context {
  ucontext_t U;
};

void makeContext(Context &C, char *Bottom, char *Top) {
  getcontext(&C.U);
  C.U.uc_stack.ss_sp = Bottom;
  C.U.uc_stack.ss_size = static_cast<size_t>(Top - Bottom);
  C.U.uc_link = nullptr;
  makecontext(&C.U, &fiberMain, 0);
}

void switchContext(Context &From, Context &To) { swapcontext(&From.U, &To.U); }
#endif

//===--- Stacks -------------------------------------------------------------===//

constexpr size_t StackBytes = 256 << 10;

class StackPool {
public:
  ~StackPool() { release(); }

  bool reserve(size_t N, std::string &Error) {
    if (N <= Count)
      return true;
    release();
    size_t Page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    Guard = Page;
    Stride = StackBytes + Guard;
    void *P = mmap(nullptr, N * Stride, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED) {
      Error = "cannot map " + std::to_string(N) + " thread stacks";
      return false;
    }
    Base = static_cast<char *>(P);
    Count = N;
    for (size_t I = 0; I < N; ++I)
      mprotect(Base + I * Stride, Guard, PROT_NONE);
    return true;
  }

  char *bottom(size_t I) const { return Base + I * Stride + Guard; }
  char *top(size_t I) const { return Base + (I + 1) * Stride; }

private:
  void release() {
    if (Base)
      munmap(Base, Count * Stride);
    Base = nullptr;
    Count = 0;
  }

  char *Base = nullptr;
  size_t Count = 0, Stride = 0, Guard = 0;
};

//===--- One launch -----------------------------------------------------------===//

enum class State : uint8_t { Ready, Barrier, Collective, Done };

struct Fiber {
  Context Ctx;
  char *Bottom = nullptr, *Top = nullptr;
  State St = State::Ready;
  unsigned Line = 0; // the barrier it waits at
  unsigned Tid[3] = {0, 0, 0};
#ifdef SCHED_EMU_ASAN
  void *FakeStack = nullptr;
#endif
};

/// Lanes of one warp waiting at one collective (one mask: lanes with
/// disjoint masks may run separate collectives at once, as in CUDA).
struct PendingCollective {
  unsigned Mask = 0, Arrived = 0;
  const sched_emu_collective *First = nullptr; // on the first lane's stack
  unsigned FirstLane = 0;
  void *LaneData[32] = {};
};

const unsigned char Poison = 0xFF;

/// Under AddressSanitizer, marks a piece of a thread's stack as plain
/// memory again: a thread never returns from its first frame (it ends by
/// switching away), so the redzones of its frames stay marked.
void clearShadow(char *P, size_t Bytes) {
#ifdef SCHED_EMU_ASAN
  __asan_unpoison_memory_region(P, Bytes);
#else
  (void)P;
  (void)Bytes;
#endif
}

class Launch {
public:
  Launch(const KernelImage &K, const unsigned Grid[3], const unsigned Block[3], EmuStats &Stats,
         StackPool &Stacks)
      : K(K), Stats(Stats), Stacks(Stacks) {
    for (int D = 0; D < 3; ++D)
      this->Grid[D] = Grid[D], this->Block[D] = Block[D];
    NumThreads = Block[0] * Block[1] * Block[2];
  }

  bool run(std::string &Err) {
    if (NumThreads > 1024) {
      Err = "a block of " + std::to_string(NumThreads) + " threads; CUDA allows at most 1024";
      return false;
    }
    if (!Stacks.reserve(NumThreads, Err))
      return false;
    Fibers.resize(NumThreads);
    for (unsigned T = 0; T < NumThreads; ++T) {
      Fiber &F = Fibers[T];
      F.Bottom = Stacks.bottom(T);
      F.Top = Stacks.top(T);
      F.Tid[0] = T % Block[0];
      F.Tid[1] = T / Block[0] % Block[1];
      F.Tid[2] = T / (Block[0] * Block[1]);
    }
    Warps.assign((NumThreads + 31) / 32, {});
    sched_emu_regs &R = *K.Regs;
    R.block_dim = {Block[0], Block[1], Block[2]};
    R.grid_dim = {Grid[0], Grid[1], Grid[2]};
    for (unsigned Z = 0; Z < Grid[2]; ++Z)
      for (unsigned Y = 0; Y < Grid[1]; ++Y)
        for (unsigned X = 0; X < Grid[0]; ++X) {
          BlockIdx[0] = X, BlockIdx[1] = Y, BlockIdx[2] = Z;
          R.block_idx = {X, Y, Z};
          if (!runBlock()) {
            Err = Error;
            return false;
          }
          ++Stats.Blocks;
          Stats.Threads += NumThreads;
        }
    return true;
  }

  //===--- Called by the running fiber (through schedulerApi) -------------===//

  void syncthreads(unsigned Line) {
    Fiber &F = *Current;
    F.St = State::Barrier;
    F.Line = Line;
    yield();
  }

  void collective(const sched_emu_collective &C) {
    unsigned T = static_cast<unsigned>(Current - Fibers.data());
    unsigned Lane = T % 32, W = T / 32;
    unsigned InWarp = std::min(32u, NumThreads - W * 32);
    unsigned Exists = InWarp == 32 ? 0xffffffffu : (1u << InWarp) - 1;
    if (!(C.mask >> Lane & 1))
      fail("%s (line %u) with mask 0x%08x, which leaves out the calling lane %u", C.op, C.line,
           C.mask, Lane);
    if (C.mask & ~Exists)
      fail("%s (line %u) with mask 0x%08x in warp %u, which has %u threads (the block has %u)",
           C.op, C.line, C.mask, W, InWarp, NumThreads);
    std::vector<PendingCollective> &Pending = Warps[W];
    PendingCollective *P = nullptr;
    for (PendingCollective &Q : Pending) {
      if (Q.Mask == C.mask) {
        P = &Q;
        break;
      }
      if (Q.Mask & C.mask)
        fail("lane %u of warp %u calls %s (line %u) while lane %u waits at %s (line %u) with an "
             "overlapping mask",
             Lane, W, C.op, C.line, Q.FirstLane, Q.First->op, Q.First->line);
    }
    if (!P) {
      Pending.push_back({});
      P = &Pending.back();
      P->Mask = C.mask;
      P->First = &C;
      P->FirstLane = Lane;
    } else {
      checkAgrees(*P, C, Lane, W);
    }
    P->LaneData[Lane] = C.lane;
    P->Arrived |= 1u << Lane;
    if (P->Arrived != P->Mask) {
      Current->St = State::Collective;
      yield();
      return;
    }
    // The last lane: run it for the warp, then wake the others.
    void *Lanes[32];
    std::copy(P->LaneData, P->LaneData + 32, Lanes);
    unsigned Mask = P->Mask;
    Pending.erase(Pending.begin() + (P - Pending.data()));
    C.run(Lanes, Mask);
    ++Stats.Collectives;
    for (unsigned L = 0; L < 32; ++L)
      if (L != Lane && (Mask >> L & 1))
        Fibers[W * 32 + L].St = State::Ready;
  }

  /// Stops the launch from the running thread. The thread is abandoned, so
  /// nothing on its stack may own memory: the message is formatted into a
  /// buffer, never built from std::string temporaries.
  [[noreturn]] __attribute__((format(printf, 2, 3))) void fail(const char *Format, ...) {
    char Message[1024];
    va_list Args;
    va_start(Args, Format);
    int Length = std::vsnprintf(Message, sizeof(Message), Format, Args);
    va_end(Args);
    const Fiber &F = *Current;
    std::snprintf(Message + std::min<size_t>(Length, sizeof(Message) - 1),
                  sizeof(Message) - std::min<size_t>(Length, sizeof(Message) - 1),
                  " (thread (%u,%u,%u) of block (%u,%u,%u))", F.Tid[0], F.Tid[1], F.Tid[2],
                  BlockIdx[0], BlockIdx[1], BlockIdx[2]);
    Error = Message;
    Failed = true;
    yield();
    std::abort(); // a failed launch never resumes its threads
  }

  void finish() {
    Current->St = State::Done;
    ++Done;
    yield();
  }

  /// The fiber that runs, while one does.
  Fiber *Current = nullptr;
  Context Main;
#ifdef SCHED_EMU_ASAN
  void *MainFakeStack = nullptr;
  const void *MainBottom = nullptr;
  size_t MainSize = 0;
#endif
  const KernelImage &K;

private:
  EmuStats &Stats;
  StackPool &Stacks;
  unsigned Grid[3], Block[3], BlockIdx[3] = {0, 0, 0};
  unsigned NumThreads = 0;
  std::vector<Fiber> Fibers;
  std::vector<std::vector<PendingCollective>> Warps;
  unsigned Done = 0; // threads finished in this block
  bool Failed = false;
  std::string Error;
  /// How much of each stack a block is seen to use: poisoned before each
  /// block, grown when a thread writes the lowest bytes of it.
  size_t PoisonDepth = 8 << 10;

  static std::string triple(const unsigned V[3]) {
    return "(" + std::to_string(V[0]) + "," + std::to_string(V[1]) + "," + std::to_string(V[2]) +
           ")";
  }

  static std::string describe(const sched_emu_collective &C) {
    return std::string(C.op) + " (line " + std::to_string(C.line) + ")";
  }

  void checkAgrees(const PendingCollective &P, const sched_emu_collective &C, unsigned Lane,
                   unsigned W) {
    const sched_emu_collective &F = *P.First;
    if (std::strcmp(F.op, C.op) != 0 || F.line != C.line)
      fail("lanes %u and %u of warp %u diverge: one waits at %s (line %u), the other calls %s "
           "(line %u)",
           P.FirstLane, Lane, W, F.op, F.line, C.op, C.line);
    for (unsigned I = 0; I < C.uniform_count && I < F.uniform_count; ++I)
      if (F.uniform[I] != C.uniform[I])
        fail("lanes %u and %u of warp %u give %s (line %u) different %s: %lld and %lld (a "
             "warp-collective argument must be the same in every lane)",
             P.FirstLane, Lane, W, C.op, C.line, C.uniform_names[I], F.uniform[I], C.uniform[I]);
  }

  void yield() {
    Fiber &F = *Current;
#ifdef SCHED_EMU_ASAN
    __sanitizer_start_switch_fiber(F.St == State::Done || Failed ? nullptr : &F.FakeStack,
                                   MainBottom, MainSize);
#endif
    switchContext(F.Ctx, Main);
#ifdef SCHED_EMU_ASAN
    __sanitizer_finish_switch_fiber(F.FakeStack, nullptr, nullptr);
#endif
  }

  void enter(Fiber &F) {
    Current = &F;
    sched_emu_regs &R = *K.Regs;
    R.thread_idx = {F.Tid[0], F.Tid[1], F.Tid[2]};
    unsigned T = static_cast<unsigned>(&F - Fibers.data());
    R.lane = T % 32;
    R.warp = T / 32;
    R.stack_top = F.Top;
#ifdef SCHED_EMU_ASAN
    __sanitizer_start_switch_fiber(&MainFakeStack, F.Bottom, static_cast<size_t>(F.Top - F.Bottom));
#endif
    switchContext(Main, F.Ctx);
#ifdef SCHED_EMU_ASAN
    __sanitizer_finish_switch_fiber(MainFakeStack, &MainBottom, &MainSize);
#endif
    Current = nullptr;
  }

  void poison() {
    if (K.SharedBegin && K.SharedEnd > K.SharedBegin)
      std::memset(K.SharedBegin, Poison, static_cast<size_t>(K.SharedEnd - K.SharedBegin));
    for (Fiber &F : Fibers) {
      clearShadow(F.Top - PoisonDepth, PoisonDepth);
      std::memset(F.Top - PoisonDepth, Poison, PoisonDepth);
    }
  }

  /// Grows PoisonDepth when a thread used the lowest bytes of it.
  void measureStacks() {
    size_t Usable = StackBytes;
    for (Fiber &F : Fibers) {
      if (PoisonDepth >= Usable)
        return;
      clearShadow(F.Top - PoisonDepth, 256);
      const unsigned char *Low = reinterpret_cast<const unsigned char *>(F.Top - PoisonDepth);
      for (int I = 0; I < 256; ++I)
        if (Low[I] != Poison) {
          PoisonDepth = std::min(Usable, PoisonDepth * 2);
          break;
        }
    }
  }

  bool runBlock() {
    poison();
    for (Fiber &F : Fibers) {
      F.St = State::Ready;
      makeContext(F.Ctx, F.Bottom, F.Top);
    }
    Done = 0;
    for (std::vector<PendingCollective> &W : Warps)
      W.clear();
    while (Done < NumThreads) {
      bool Ran = false;
      for (Fiber &F : Fibers) {
        if (F.St != State::Ready)
          continue;
        Ran = true;
        enter(F);
        if (Failed)
          return false;
      }
      if (Ran || Done == NumThreads)
        continue;
      if (!resolveStuck())
        return false;
    }
    measureStacks();
    return true;
  }

  std::string threadText(unsigned T) const { return triple(Fibers[T].Tid); }

  /// No thread is ready and some have not finished: release a barrier every
  /// live thread waits at, or fail saying why the block cannot go on.
  bool resolveStuck() {
    for (unsigned W = 0; W < Warps.size(); ++W) {
      if (Warps[W].empty())
        continue;
      const PendingCollective &P = Warps[W].front();
      unsigned Missing = P.Mask & ~P.Arrived, L = static_cast<unsigned>(__builtin_ctz(Missing));
      const Fiber &M = Fibers[W * 32 + L];
      std::string Where = M.St == State::Done ? "has finished"
                          : M.St == State::Barrier
                              ? "waits at __syncthreads (line " + std::to_string(M.Line) + ")"
                              : "waits at another warp collective";
      Error = "lane " + std::to_string(P.FirstLane) + " of warp " + std::to_string(W) +
              " waits at " + describe(*P.First) + ", but lane " + std::to_string(L) + " (thread " +
              threadText(W * 32 + L) + ") " + Where + " (block " + triple(BlockIdx) + ")";
      return false;
    }
    unsigned First = NumThreads;
    for (unsigned T = 0; T < NumThreads; ++T)
      if (Fibers[T].St == State::Barrier) {
        First = T;
        break;
      }
    if (First == NumThreads) {
      Error = "the block stopped with no thread ready (block " + triple(BlockIdx) + ")";
      return false;
    }
    unsigned Line = Fibers[First].Line;
    for (unsigned T = 0; T < NumThreads; ++T) {
      const Fiber &F = Fibers[T];
      if (F.St == State::Done) {
        Error = "thread " + threadText(T) + " finished while thread " + threadText(First) +
                " waits at __syncthreads (line " + std::to_string(Line) + ") (block " +
                triple(BlockIdx) + "): every thread of a block must reach each barrier";
        return false;
      }
      if (F.Line != Line) {
        Error = "threads wait at different barriers: thread " + threadText(First) + " at line " +
                std::to_string(Line) + ", thread " + threadText(T) + " at line " +
                std::to_string(F.Line) + " (block " + triple(BlockIdx) + ")";
        return false;
      }
    }
    for (Fiber &F : Fibers)
      F.St = State::Ready;
    ++Stats.Barriers;
    return true;
  }
};

Launch *Active = nullptr;

#ifdef SCHED_EMU_ASAN
void fiberEnter() {
  __sanitizer_finish_switch_fiber(nullptr, &Active->MainBottom, &Active->MainSize);
}
#endif

void fiberMain() {
  Launch &L = *Active;
#if defined(SCHED_EMU_ASAN) && defined(SCHED_EMU_USE_UCONTEXT)
  fiberEnter();
#endif
  L.K.Body(L.K.Context);
  L.finish();
  std::abort(); // a finished fiber is never resumed
}

void apiSyncthreads(unsigned Line) { Active->syncthreads(Line); }
void apiCollective(const sched_emu_collective *C) { Active->collective(*C); }
void apiFail(const char *Message) { Active->fail("%s", Message); }
const char *apiRegionStart(const void *P) {
  const char *C = static_cast<const char *>(P);
  for (const auto &R : Active->K.Regions)
    if (C >= R.first && C < R.second)
      return R.first;
  return nullptr;
}

} // namespace

const sched_emu_api &schedulerApi() {
  static const sched_emu_api Api = {SCHED_EMU_ABI_VERSION, &apiSyncthreads, &apiCollective,
                                    &apiFail, &apiRegionStart};
  return Api;
}

bool runGrid(const KernelImage &K, const unsigned Grid[3], const unsigned Block[3], EmuStats &Stats,
             std::string &Error) {
  static std::mutex Lock;
  static StackPool Stacks;
  std::lock_guard<std::mutex> Guard(Lock);
  Launch L(K, Grid, Block, Stats, Stacks);
  Active = &L;
  bool Ok = L.run(Error);
  Active = nullptr;
  return Ok;
}

} // namespace emu
} // namespace sched
