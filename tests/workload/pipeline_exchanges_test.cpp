// Megatron-LM 2021's batched exchanges: which sends and receives each exchange posts, and where.
#include <doctest/doctest.h>

#include <string>

#include "workload/pipeline_exchanges.hpp"

using namespace zs::workload;

namespace {
/// "C2" computes step 2, "S2" sends its output, "R2" receives its input, "W" waits for the sends.
std::string render(const std::vector<StageAction>& actions) {
  std::string out;
  for (const auto& a : actions) {
    if (!out.empty()) out += ' ';
    switch (a.kind) {
      case StageAction::Kind::kCompute:
        out += "C" + std::to_string(a.step);
        break;
      case StageAction::Kind::kSend:
        out += "S" + std::to_string(a.step);
        break;
      case StageAction::Kind::kReceive:
        out += "R" + std::to_string(a.step);
        break;
      case StageAction::Kind::kWait:
        out += "W";
        break;
    }
  }
  return out;
}

PipelineStep f(uint32_t mb) {
  return {true, mb, 0, false};
}
PipelineStep b(uint32_t mb) {
  return {false, mb, 0, false};
}
}  // namespace

TEST_CASE("1F1B: an exchange after every step, sending its output and receiving the next step's input") {
  const auto steps = pipeline_order(PipelineSchedule::k1F1B, 0, 2, 3, 1);  // F0 F1 B0 F2 B1 B2
  CHECK(render(batched_exchange_actions(steps, 1)) ==
        "R0 W C0 S0 R1 W C1 S1 R2 W C2 S2 R3 W C3 S3 R4 W C4 S4 R5 W C5 S5 W");
}

TEST_CASE("interleaved steady state: a forward and the backward after it run with no exchange between") {
  const std::vector<PipelineStep> steps = {f(0), f(1), b(0), f(2), b(1), b(2)};
  // Steps 1-2 and 3-4 are pairs: the exchange before a pair receives both inputs, the one after sends
  // both outputs.
  CHECK(render(batched_exchange_actions(steps, 2)) ==
        "R0 W C0 S0 R1 R2 W C1 C2 S1 S2 R3 R4 W C3 C4 S3 S4 R5 W C5 S5 W");
  // Without interleaving nothing is paired.
  CHECK(render(batched_exchange_actions(steps, 1)) ==
        "R0 W C0 S0 R1 W C1 S1 R2 W C2 S2 R3 W C3 S3 R4 W C4 S4 R5 W C5 S5 W");
}

TEST_CASE("a stage with no steady state (only warm-up forwards before its backwards) pairs nothing") {
  const std::vector<PipelineStep> steps = {f(0), f(1), b(0), b(1)};
  CHECK(render(batched_exchange_actions(steps, 2)) == "R0 W C0 S0 R1 W C1 S1 R2 W C2 S2 R3 W C3 S3 W");
}
