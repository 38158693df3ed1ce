//===- Pass.h - The one shape of a lowering pass ---------------*- C++ -*-===//
//
// Every lowering pass is a Pass: a name, the form of the nest it requires,
// the form it establishes, and one function that takes the LoweringState,
// reports through its one error sink (State.Diags: an error Diag stops the
// pipeline) and returns whether it succeeded. Passes are registered by name
// (the built-in ones in PassRegistry.cpp, others with registerPass), so a
// target's pipeline is a list of names (targets/), and `sched-opt
// --passes=a,b` runs any of them alone on textual IR.
//
// A form is a set of bits of one target's KernelForm or VtaForm: what holds
// of the nest from some point of its pipeline on, as that target's verifier
// checks it (targets/Target.h, TargetDescription::Verify). The pass driver
// (Pipeline.cpp) checks a pass's Requires before it runs, in every build, so
// a pass given IR in an earlier form is an error naming the pass, never a
// crash; with verify-each it checks what the passes so far established after
// every pass. What a pass needs that is not in the IR (the launch geometry
// of the KernelContext) is recomputed from the IR when the state lacks it
// (TargetDescription::Prepare), so a pass runs alone from its input form.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_PASS_H
#define SCHED_PASSES_PASS_H

#include "Pipeline.h"
#include "ir/IR.h"
#include "ir/Diag.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace sched {
namespace passes {

/// The launch as the kernel's thread bindings describe it, computed once by
/// ComputeLaunchGeometry (after thread bindings are verified and virtual
/// threads injected) and read by every later pass (never recomputing
/// extents from the loops).
struct KernelContext {
  bool Known = false;              // ComputeLaunchGeometry has filled it in
  LaunchGeometry Geometry;         // grid and block extents, 1 where unused
  std::set<std::string> BoundTags; // the blockIdx/threadIdx tags some loop binds

  /// The launch extent of a blockIdx/threadIdx tag: 1 when no loop binds it,
  /// null for any other tag.
  ir::Expr extent(const std::string &Tag) const;
  /// The same when it is a constant; -1 when it is only known at run time
  /// (or the tag is not a launch dimension).
  int64_t constExtent(const std::string &Tag) const;
  /// The threadIdx tags the block has more than one thread along (or a
  /// number known only at run time), z first: the coordinates of a thread.
  std::vector<std::string> threadTags() const;
  /// constExtent of every threadIdx (Block) or blockIdx (Grid) tag, keyed
  /// by tag: the form ir::mayConflictAcrossThreads/Blocks take.
  std::map<std::string, int64_t> blockExtents() const;
  std::map<std::string, int64_t> gridExtents() const;
};

/// What holds of a GPU kernel at a point of the pipeline; verifyKernel
/// checks exactly that much. The pipeline establishes them in this order,
/// so each includes those before it: requiring FormDistributed requires the
/// first five.
enum KernelForm : unsigned {
  FormAny = 0,
  FormBindingsVerified = 1u << 0,   // every tag is known; tags nest properly
  FormNoVirtualThreads = 1u << 1,   // vthread/cthread loops are lowered
  FormGeometryKnown = 1u << 2,      // the KernelContext is filled in
  FormLaunchLoopsWidened = 1u << 3, // every outermost loop of a tag runs over its launch extent
  FormDistributed = 1u << 4,        // thread loops over launch extents; global/shared writes inside every thread dim
  FormSynchronized = 1u << 5,       // no barrier under thread-divergent control flow
  FormFlattened = 1u << 6,          // every buffer has one dimension
  FormFinal = 1u << 7,              // allocations have constant sizes (CUDA arrays)
  FormComplete = (1u << 8) - 1,     // all of the above: a kernel ready to launch
};

/// What holds of a target(vta) program (ir/Vta.h describes its forms);
/// verifyVtaForm checks exactly that much. In pipeline order, each including
/// those before it. The bits lie above KernelForm's, so a pass declares one
/// target's forms only.
enum VtaForm : unsigned {
  VtaFormFolded = 1u << 8,        // no uop outside a vta.push_* (kernel form)
  VtaFormSynchronized = 1u << 9,  // the program ends with vta.synchronize()
  VtaFormNoContexts = 1u << 10,   // no cthread (or other thread-bound) loop
  VtaFormFinal = 1u << 11,        // every VTA call in the final (runtime API) form
  VtaFormVerified = 1u << 12,     // within the hardware's limits (VerifyVtaProgram)
  VtaFormComplete = ((1u << 13) - 1) & ~((1u << 8) - 1),
};

/// What the passes read and write: the nest, the kernel context (filled in by
/// ComputeLaunchGeometry, or recomputed from the IR for a pass that runs
/// alone), the launcher's regions, the one error sink, and the options (the
/// target architecture).
struct LoweringState {
  LoweringState(ir::LoopNest Nest, std::vector<Diag> &Diags, const PipelineOptions &Opts)
      : Nest(std::move(Nest)), Diags(Diags), Opts(Opts) {}

  ir::LoopNest Nest;
  KernelContext Ctx;
  std::vector<BufferRegion> Regions;
  std::vector<Diag> &Diags;
  const PipelineOptions &Opts;

  /// The kernel context, computed from the IR (ComputeLaunchGeometry's
  /// analysis) when no pass has filled it in yet: a pass that reads it runs
  /// alone as well as after ComputeLaunchGeometry. Null, with errors in
  /// Diags, when the nest has no launch geometry.
  const KernelContext *launchContext();
  /// Appends an error Diag (Loc: a directive location id, -1 for the nest)
  /// and returns false, for `return S.error(...)`.
  bool error(const std::string &Message, int Loc = -1);
  /// Whether an error was reported since Diags held First entries.
  bool failedSince(size_t First) const;
};

/// One lowering pass.
struct Pass {
  const char *Name;
  /// What must hold of the nest before it runs (KernelForm or VtaForm bits).
  unsigned Requires;
  /// What holds of the nest after it ran, in addition to what held before.
  unsigned Establishes;
  /// Runs the pass on State; false when it failed (having said why in
  /// State.Diags).
  bool (*Run)(LoweringState &State);
};

/// Registers P under P.Name; false (nothing registered) when a pass of that
/// name exists already.
bool registerPass(const Pass &P);

/// Removes a pass registerPass added (a test's throwaway pass); false for a
/// built-in or unknown one.
bool unregisterPass(const std::string &Name);

/// The pass registered as Name, or null.
const Pass *findPass(const std::string &Name);

/// Every registered pass's name, sorted.
std::vector<std::string> registeredPassNames();

} // namespace passes
} // namespace sched

#endif
