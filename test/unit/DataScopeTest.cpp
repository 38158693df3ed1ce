//===- DataScopeTest.cpp - Data scopes keep arrays coherent ---------------===//
//
// The data scopes' state machine (runtime/DataScope.h) against a device whose
// memory is apart from the host's, so a missing or stale copy shows in the
// values: kernels "run" by writing the device copy the launch was given.
//
//===----------------------------------------------------------------------===//
#include "DataScope.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>

using namespace sched;
using namespace sched::runtime;

namespace {

int Allocs = 0, ToDevices = 0, ToHosts = 0;

bool fakeAlloc(size_t Bytes, uintptr_t &Out, std::string &) {
  Out = reinterpret_cast<uintptr_t>(std::calloc(1, Bytes));
  ++Allocs;
  return true;
}
void fakeFree(uintptr_t P) { std::free(reinterpret_cast<void *>(P)); }
bool fakeToDevice(uintptr_t D, const void *H, size_t Bytes, std::string &) {
  std::memcpy(reinterpret_cast<void *>(D), H, Bytes);
  ++ToDevices;
  return true;
}
bool fakeToHost(void *H, uintptr_t D, size_t Bytes, std::string &) {
  std::memcpy(H, reinterpret_cast<const void *>(D), Bytes);
  ++ToHosts;
  return true;
}
const DeviceMemory FakeDevice = {fakeAlloc, fakeFree, fakeToDevice, fakeToHost};

ScalarProgram program(const std::string &Text) {
  ScalarProgram P;
  std::string Error;
  EXPECT_TRUE(ScalarProgram::parse(Text, P, Error)) << Error;
  return P;
}

/// out[i] = in[i] + 1 over n floats: in read, out written, n a scalar.
LaunchPlan plusOne() {
  LaunchPlan P;
  P.Kernel = "plus_one";
  LaunchPlan::Param In, Out, N;
  In.Name = "in";
  In.IsBuffer = true;
  In.Type = ir::DType::Float32;
  In.HasRegion = In.Read = true;
  In.Extent = program("$2");
  Out = In;
  Out.Name = "out";
  Out.Read = false;
  Out.Written = true;
  N.Name = "n";
  P.Params = {In, Out, N};
  return P;
}

/// Runs plusOne "on the device": through the pointers the scope gave.
void runKernel(const std::vector<void *> &Data, int N) {
  const float *In = static_cast<const float *>(Data[0]);
  float *Out = static_cast<float *>(Data[1]);
  for (int I = 0; I < N; ++I)
    Out[I] = In[I] + 1;
}

class DataScopeTest : public ::testing::Test {
protected:
  void SetUp() override {
    Allocs = ToDevices = ToHosts = 0;
    for (int I = 0; I < 4; ++I)
      A[I] = float(I), B[I] = -1;
  }
  void TearDown() override {
    std::string Error;
    while (openScopes())
      endScope(Error);
  }
  /// One launch of plusOne(In, Out) placed Where.
  void launch(float *In, float *Out, Placement Where) {
    std::vector<void *> Data = {In, Out, &N}, Host = Data;
    ScopeTraffic Traffic;
    std::string Error;
    ASSERT_TRUE(prepareLaunch(Plan, Data, Where, &FakeDevice, Traffic, Error)) << Error;
    // A mapped array's device copy replaces it; under Device only.
    for (int K = 0; K < 2; ++K)
      EXPECT_EQ(Data[K] != Host[K], Where == Placement::Device && Traffic.Mapped[K]) << K;
    runKernel(Data, N);
    finishLaunch(Plan, Host, Where);
    Last = Traffic;
  }
  LaunchPlan Plan = plusOne();
  float A[4], B[4];
  int32_t N = 4;
  ScopeTraffic Last;
};

} // namespace

TEST_F(DataScopeTest, ArraysGoInOnceStayOnTheDeviceAndComeBackAtTheEnd) {
  std::string Error;
  beginScope();
  ASSERT_TRUE(mapArray(A, sizeof A, Error)) << Error;
  ASSERT_TRUE(mapArray(B, sizeof B, Error)) << Error;
  launch(A, B, Placement::Device); // B = A + 1, on the device
  EXPECT_EQ(Last.BytesIn, sizeof A + sizeof B);
  EXPECT_EQ(B[0], -1); // the host's B is not the device's yet
  launch(B, A, Placement::Device); // A = B + 1 = A + 2, on the device: no copies
  EXPECT_EQ(Last.BytesIn, 0u);
  EXPECT_EQ(ToDevices, 2);
  EXPECT_EQ(A[3], 3); // still the host's
  ASSERT_TRUE(endScope(Error)) << Error;
  EXPECT_EQ(A[3], 5);
  EXPECT_EQ(B[3], 4);
  EXPECT_EQ(ToHosts, 2);
}

TEST_F(DataScopeTest, TheOriginalLoopGetsTheDevicesDataAndTheNextKernelCopiesAgain) {
  std::string Error;
  beginScope();
  ASSERT_TRUE(mapArray(A, sizeof A, Error)) << Error;
  ASSERT_TRUE(mapArray(B, sizeof B, Error)) << Error;
  launch(A, B, Placement::Device); // B = A + 1 on the device
  launch(B, A, Placement::Host);   // the original loop: B back first, A = B + 1 on the host
  EXPECT_EQ(B[2], 3);
  EXPECT_EQ(A[2], 4);
  launch(A, B, Placement::Device); // A went stale on the device: copied again
  EXPECT_EQ(Last.BytesIn, sizeof A);
  ASSERT_TRUE(endScope(Error)) << Error;
  EXPECT_EQ(B[2], 5);
}

TEST_F(DataScopeTest, UpdateHostAndUpdateDeviceMoveOneArrayNow) {
  std::string Error;
  beginScope();
  ASSERT_TRUE(mapArray(A, sizeof A, Error)) << Error;
  ASSERT_TRUE(mapArray(B, sizeof B, Error)) << Error;
  launch(A, B, Placement::Device);
  ASSERT_TRUE(updateHost(B + 2, Error)) << Error; // any address inside the array
  EXPECT_EQ(B[1], 2);
  A[0] = 100; // the host writes A, and says so
  ASSERT_TRUE(updateDevice(A, Error)) << Error;
  launch(A, B, Placement::Device);
  ASSERT_TRUE(endScope(Error)) << Error;
  EXPECT_EQ(B[0], 101);
}

TEST_F(DataScopeTest, SimCountsTheCopiesCudaWouldMake) {
  std::string Error;
  beginScope();
  ASSERT_TRUE(mapArray(A, sizeof A, Error)) << Error;
  ASSERT_TRUE(mapArray(B, sizeof B, Error)) << Error;
  launch(A, B, Placement::Counted);
  EXPECT_EQ(Last.BytesIn, sizeof A + sizeof B);
  EXPECT_EQ(B[1], 2); // in place
  launch(B, A, Placement::Counted);
  EXPECT_EQ(Last.BytesIn, 0u);
  EXPECT_EQ(Allocs, 0);
  uint64_t Closed, Out, Before;
  closedScopeTotals(Closed, Before);
  ASSERT_TRUE(endScope(Error)) << Error;
  closedScopeTotals(Closed, Out);
  EXPECT_EQ(Out - Before, sizeof A + sizeof B);
}

TEST_F(DataScopeTest, ARegionPartlyMappedIsStagedFromACurrentHost) {
  std::string Error;
  float C[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  beginScope();
  ASSERT_TRUE(mapArray(C, 4 * sizeof(float), Error)) << Error; // C[0..3]
  ASSERT_TRUE(mapArray(A, sizeof A, Error)) << Error;
  launch(A, C, Placement::Device); // C[0..3] = A + 1 on the device
  launch(C + 2, B, Placement::Device); // reads C[2..5]: half mapped
  EXPECT_FALSE(Last.Mapped[0]); // staged from the host, which got C[0..3] back first
  EXPECT_EQ(Last.BytesOut, 4 * sizeof(float));
  EXPECT_EQ(C[2], 3);
  EXPECT_EQ(C[4], 4);
}

TEST_F(DataScopeTest, MisuseIsAnError) {
  std::string Error;
  EXPECT_FALSE(mapArray(A, sizeof A, Error));
  EXPECT_NE(Error.find("outside a data scope"), std::string::npos) << Error;
  EXPECT_FALSE(endScope(Error));
  beginScope();
  ASSERT_TRUE(mapArray(A, sizeof A, Error)) << Error;
  EXPECT_FALSE(mapArray(A + 1, sizeof(float), Error));
  EXPECT_NE(Error.find("overlaps"), std::string::npos) << Error;
  EXPECT_FALSE(updateHost(B, Error));
}
