//===- LaunchDescriptor.h - What the launcher needs, as text ---*- C++ -*-===//
//
// The plugin replaces an annotated nest with
//     if (!__sched_launch(DESCRIPTOR, &arg0, &arg1, ..., &final0, ...)) { original loop }
// where DESCRIPTOR is a string literal made by serializeDescriptor and each
// argument is the address of one parameter's storage, in Params order, then
// the address of each variable whose final value the launcher stores
// (LaunchDescriptor::Finals). The
// runtime parses the descriptor once per call site (parseDescriptor, the same
// code) and runs the kernel under the chosen backend, or returns 0 so the
// original loop runs (host backend).
//
// The compiler (compileNest) writes it; the runtime reads it in two ways.
// The launcher and the backends that run emitted code (cuda, emu) read only
// its plan (ir/LaunchPlan.h: geometry, regions, assumptions, architecture,
// payload, as plain data with expressions as integer programs), without the
// IR library; the simulator and the VTA runner, which interpret the
// kernel's IR, read the whole descriptor (parseDescriptor) when they first
// run it. It lives in ir/ and depends on ir/ only, so the runtime includes
// neither codegen nor the passes.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_LAUNCHDESCRIPTOR_H
#define SCHED_IR_LAUNCHDESCRIPTOR_H

#include "ir/IR.h"
#include "ir/Kernel.h"
#include "ir/LaunchPlan.h"
#include <string>
#include <vector>

namespace sched {

struct LaunchDescriptor {
  /// How each launcher argument points at its parameter's value.
  using ArgKind = LaunchPlan::ArgKind;
  std::vector<ArgKind> ArgKinds; // parallel to Kernel.Kernel.Params
  LoweredKernel Kernel;          // lowered IR, geometry, regions
  /// Which runner of the runtime runs the kernel: the target's
  /// (TargetDescription::Runner). runtime/Launch.cpp reads this, never the
  /// target's name.
  RunnerKind Runner = RunnerKind::Kernel;
  /// The target's payload: the emitted source where the target's runner
  /// compiles it (TargetDescription::SourceInDescriptor: CUDA for NVRTC);
  /// empty otherwise. The text form keeps its section name, `cuda`.
  std::string Payload;
  /// The least compute capability (major*10 + minor) a device needs to run
  /// the payload (wmma: 70; 0: any), computed when the kernel is emitted
  /// (TargetDescription::MinCapability) so the launcher need not read the
  /// IR to know it.
  int MinCapability = 0;

  /// A variable declared outside the nest that the nest assigns (a C89
  /// loop counter, `int i; for (i = 0; i < n; i++)`): after a kernel ran,
  /// the launcher stores what the original loop leaves in it. Its argument
  /// follows the parameters' (argument ArgKinds.size() + k is the address of
  /// final k's variable, of type Type). When (null: always) says whether the
  /// nest assigns it at all for these arguments (an inner loop's counter is
  /// not assigned when an outer loop runs zero times); Value is the value.
  /// Both are expressions over the kernel's scalar parameters.
  struct FinalValue {
    std::string Name; // the variable, for messages and dumps
    ir::DType Type = ir::DType::Int32;
    ir::Expr When, Value;
  };
  std::vector<FinalValue> Finals;

  /// The payload compiled when the program was built (LaunchPlan::Images).
  std::vector<LaunchPlan::Image> Images;
};

/// Checks that every expression the launcher evaluates before a launch
/// (grid and block extents, copy regions, run-time assumptions, finals) is an
/// integer expression over literals and the kernel's scalar parameters only,
/// which a ScalarProgram holds: the launcher has nothing else. False, with
/// the offending expression in Error, otherwise (an internal error of the
/// compiler: the nest must stay as written).
bool checkLaunchExprs(const LoweredKernel &K, std::string &Error,
                      const std::vector<LaunchDescriptor::FinalValue> &Finals = {});

/// E as a program over Nest's parameters (ScalarProgram::OpCode::Param k is
/// Nest.Params[k]); a null E is the empty program. False with Error when E
/// is not an integer expression over scalar parameters and literals.
bool programOf(const ir::Expr &E, const ir::LoopNest &Nest, ScalarProgram &Out,
               std::string &Error);
/// The expression P computes, over Nest's scalar parameters (null for the
/// empty program; null too for a malformed one, with Error set).
ir::Expr exprOf(const ScalarProgram &P, const ir::LoopNest &Nest, std::string &Error);

/// The plan of D: what the launcher reads (checkLaunchExprs must hold).
bool planOf(const LaunchDescriptor &D, LaunchPlan &Out, std::string &Error);

std::string serializeDescriptor(const LaunchDescriptor &D);
bool parseDescriptor(const std::string &Text, LaunchDescriptor &Out, std::string &Error);

} // namespace sched

#endif
