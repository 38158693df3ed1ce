//===- CheckTest.cpp - SCHED_CHECK is on in every build -------------------===//
//
// The pass contract's checks must run where CI runs: the default
// RelWithDebInfo build and the sanitizer build define NDEBUG, which turns
// assert off. This file defines NDEBUG itself before it includes Check.h, so
// it tests the check as a release build compiles it, whatever the build type
// (PassDriverTest shows the driver turning a failed check inside a pass into
// an error naming the pass; the lit tests under driver/ feed real passes
// input that violates their required form).
//
//===----------------------------------------------------------------------===//
#ifndef NDEBUG
#define NDEBUG
#endif
#include "ir/Check.h"

#include <gtest/gtest.h>
#include <string>

using namespace sched;

namespace {

int Evaluations = 0;

bool countedFalse() {
  ++Evaluations;
  return false;
}

} // namespace

TEST(CheckTest, AFailedCheckThrowsUnderNDEBUG) {
  EXPECT_THROW(SCHED_CHECK(1 + 1 == 3, "arithmetic"), InternalError);
}

TEST(CheckTest, TheMessageNamesTheConditionAndWhereItIs) {
  try {
    SCHED_CHECK(1 + 1 == 3, "arithmetic");
    FAIL() << "SCHED_CHECK did not fail";
  } catch (const InternalError &E) {
    std::string Message = E.what();
    EXPECT_EQ(Message.rfind("check failed at ", 0), 0u) << Message;
    EXPECT_NE(Message.find("CheckTest.cpp:"), std::string::npos) << Message;
    EXPECT_NE(Message.find(": 1 + 1 == 3: arithmetic"), std::string::npos) << Message;
  }
}

TEST(CheckTest, AHoldingCheckEvaluatesItsConditionOnceAndDoesNotThrow) {
  Evaluations = 0;
  EXPECT_NO_THROW(SCHED_CHECK(!countedFalse(), "never fails"));
  EXPECT_EQ(Evaluations, 1);
}
