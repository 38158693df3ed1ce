//===- LaunchPlan.h - What the launcher needs, as plain data ----*- C++ -*-===//
//
// The part of a launch descriptor (ir/LaunchDescriptor.h) the launcher and
// the backends that do not interpret IR (cuda, emu, host) read: the kernel's
// name and source position, its parameters (how each argument points at its
// value, its type, the alignment its vector accesses need, the region of a
// buffer it reads and writes), the launch geometry, the run-time assumptions,
// the static shared memory, the architecture, the final values of variables
// declared outside the nest, and the payload. Every expression the launcher
// evaluates is a ScalarProgram over the scalar parameters, a postfix program
// of integer operations; it depends on ir/Types.h only, so reading and
// evaluating a plan needs neither the IR nor its parser. The simulator is
// the one part of the runtime that reads the kernel's IR.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_LAUNCHPLAN_H
#define SCHED_IR_LAUNCHPLAN_H

#include "ir/TargetArch.h"
#include "ir/Types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sched {

/// Which runner of the runtime runs a lowered nest (TargetDescription::Runner,
/// carried by LaunchDescriptor::Runner): a kernel, launched over its
/// geometry with its buffer regions moved (cuda, sim or host), or a VTA
/// program, run by the VTA runtime.
enum class RunnerKind : uint8_t { Kernel, VtaProgram };

/// An integer expression over a kernel's scalar parameters, as a postfix
/// program: each op pushes a value or replaces the top ones with a result.
/// Values are int64; the operators compute as C does in the operand type
/// (ir::evalScalarBinary), so a program gives what the IR expression it was
/// made from gives (ir/LaunchDescriptor.h: programOf).
class ScalarProgram {
public:
  enum class OpCode : uint8_t {
    Int,    // push Value (a literal of type Type)
    Param,  // push the value of parameter Value (its index in the plan's Params)
    Binary, // pop b, a; push a Bin b in operand type Type
    Unary,  // pop a; push Un a, wrapped to Type
    Select, // pop f, t, c; push c ? t : f
    Cast    // pop a; push a wrapped to integer type Type
  };
  struct Op {
    OpCode Code = OpCode::Int;
    ir::BinOp Bin = ir::BinOp::Add;
    ir::UnOp Un = ir::UnOp::Neg;
    ir::DType Type = ir::DType::Int64;
    int64_t Value = 0;
  };
  std::vector<Op> Ops;

  /// How many values Code pops.
  static size_t arity(OpCode Code);
  /// An empty program is a missing expression (Default when evaluated).
  bool empty() const { return Ops.empty(); }
  /// Evaluates the program with Values[k] the value of parameter k (scalar
  /// parameters only are read). False with Error when it divides by zero,
  /// shifts out of range, reads a parameter that is not there or is
  /// malformed.
  bool eval(const std::vector<int64_t> &Values, int64_t &Out, std::string &Error,
            int64_t Default = 1) const;
  /// The parameters the program reads, in increasing order, once each.
  std::vector<size_t> params() const;

  /// Text form: the ops separated by spaces, `-` for an empty program. An
  /// integer is itself (`64`; `64:int64` when not an int32), a parameter `$k`, an operator its name and
  /// type (`add.int32`, `neg.int64`, `cast.uint32`, `select`), e.g.
  /// `$1 63 add.int32 64 div.int32` for (M + 63)/64.
  std::string str() const;
  static bool parse(const std::string &Text, ScalarProgram &Out, std::string &Error);
};

struct LaunchPlan {
  std::string Kernel;     // the kernel's (and its entry point's) name
  std::string SourceFile; // where the nest was written, for messages
  unsigned SourceLine = 0;

  /// How each launcher argument points at its parameter's value.
  enum class ArgKind : uint8_t {
    Pointer, // the argument is T**: address of a pointer variable
    Array,   // the argument is T*: address of an array's first element
    Scalar,  // the argument is T*: address of a scalar variable
    Scratch  // no variable (the argument is null): the launcher allocates the
             // buffer, zeroed, for the launch (ir::Param::Scratch)
  };
  struct Param {
    std::string Name;
    ArgKind Arg = ArgKind::Scalar;
    bool IsBuffer = false;
    ir::DType Type = ir::DType::Int32; // a scalar's type, a buffer's element type
    /// The bytes a buffer argument must be aligned to for the kernel's vector
    /// accesses (ir::vectorAlignments); 0: no need.
    int64_t Alignment = 0;
    /// A buffer the kernel touches: the flat elements [Min, Min + Extent)
    /// of the argument, and whether it reads and writes them. A buffer it
    /// touches none of has no region.
    bool HasRegion = false;
    bool Read = false, Written = false;
    ScalarProgram Min, Extent; // an empty Min is 0
  };
  std::vector<Param> Params;

  /// The launch geometry (an empty program is 1), with the IR text of each
  /// extent for messages.
  ScalarProgram Grid[3], Block[3];
  std::string GridText[3], BlockText[3];

  /// A run-time assumption: the kernel may run only where it holds.
  struct Assumption {
    ScalarProgram Holds;
    std::string Text; // as the IR prints it, for messages
  };
  std::vector<Assumption> Assumptions;

  /// A variable declared outside the nest that the nest assigns (a C89
  /// loop counter): after a kernel ran, the launcher stores Value in it when
  /// When (empty: always) holds. Its address follows the parameters'.
  struct Final {
    std::string Name;
    ir::DType Type = ir::DType::Int32;
    ScalarProgram When, Value;
  };
  std::vector<Final> Finals;

  /// The bytes of static shared memory of a block (-1: not constant).
  int64_t SharedBytes = 0;
  RunnerKind Runner = RunnerKind::Kernel;
  /// The architecture NVRTC must compile for and the device must have;
  /// unset: the device's own.
  TargetArch Arch;
  /// The least compute capability (major*10 + minor) the payload needs
  /// (wmma: 70; 0: any).
  int MinCapability = 0;
  /// The emitted source the target's runner compiles (CUDA for NVRTC and
  /// emu); empty where the runner interprets the IR.
  std::string Payload;
  /// The payload compiled when the program was built (the plugin, where it
  /// finds NVRTC: -fplugin-arg-sched-embed): PTX for a virtual architecture
  /// (compute_75, compute_90a), which the driver compiles for the device
  /// when it loads it, so the program need not start NVRTC. Empty: the
  /// runner compiles Payload when the kernel first runs.
  struct Image {
    std::string Arch; // compute_XY or compute_XYa
    std::string Ptx;
  };
  std::vector<Image> Images;

  /// The parameters' values for the arguments in Data (one address of a
  /// value per parameter, as Params says; buffers and missing ones are 0):
  /// what ScalarProgram::eval reads.
  std::vector<int64_t> scalarValues(const std::vector<void *> &Data) const;
  /// The grid and block extents for the parameter values Values. False with
  /// Error when one cannot be evaluated, a grid extent is negative or a block
  /// extent below 1; Empty is set when the grid has no block (nothing to run;
  /// CUDA would refuse it).
  bool geometry(const std::vector<int64_t> &Values, int64_t Grid[3], int64_t Block[3],
                bool &Empty, std::string &Error) const;
  /// The first element and element count of parameter I's region for the
  /// parameter values Values, Data being its argument: false with Error when
  /// they cannot be evaluated, the count is negative, or Data is null and the
  /// count is not zero (`v.data()` of an empty vector is fine where the
  /// kernel touches none of it). A buffer without a region has count 0.
  bool region(size_t I, const std::vector<int64_t> &Values, const void *Data, int64_t &Min,
              int64_t &Extent, std::string &Error) const;
  /// The same region as the addresses [Begin, End) of its bytes (Begin ==
  /// End for a parameter without a region or an empty one): what the
  /// backends copy, the launcher checks for overlaps and the data scopes map.
  bool regionBytes(size_t I, const std::vector<int64_t> &Values, const void *Data,
                   uintptr_t &Begin, uintptr_t &End, std::string &Error) const;
  /// "kernel (file:line)", for messages.
  std::string where() const;
};

/// The image of Images to load on a device of compute capability DeviceArch
/// (major*10 + minor): the newest whose architecture the device has (one for
/// sm_XYa runs on sm_XY only); null when none fits.
const LaunchPlan::Image *imageForDevice(const LaunchPlan &P, int DeviceArch);

/// The descriptor's text (its format: ir/LaunchDescriptor.cpp): the plan,
/// then the kernel's IR as IRText (what the simulator reads; the launcher
/// skips it) and the payload.
std::string writeDescriptorText(const LaunchPlan &P, const std::string &IRText);
/// Reads a descriptor's text back: the plan, and the IR's text into IRText
/// when asked for. False with Error (naming the line) when it does not parse.
bool parsePlan(const std::string &Text, LaunchPlan &Out, std::string &Error,
               std::string *IRText = nullptr);

} // namespace sched

#endif // SCHED_IR_LAUNCHPLAN_H
