// The replay core runs with any fidelity: one of the test's own, whose communication is a fixed timer.
#include <doctest/doctest.h>

#include "engine/replay_core.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

/// Every memory move, point-to-point transfer and schedule transfer takes kStep, whatever its size.
class FixedStepFidelity final : public engine::ReplayFidelity {
 public:
  static constexpr double kStep = 1e-3;  ///< s
  explicit FixedStepFidelity(engine::ReplayCore& core) : core_(core) {}

  void start_memory_move(uint64_t, core::Bytes, bool, const engine::ReplayActivity& done) override {
    step(done);
  }
  void start_p2p(uint64_t, uint64_t, core::Bytes, const engine::ReplayActivity& done) override { step(done); }
  void start_collective_transfer(const engine::CollectiveInstance&, uint32_t,
                                 const engine::ReplayActivity& done) override {
    ++transfers;
    step(done);
  }
  uint32_t create_instance(const engine::InstanceKey& key, uint64_t rank, uint32_t op,
                           const workload::CommunicatorGroups& groups,
                           const workload::CollectiveOp& c) override {
    engine::CollectiveInstance inst;
    inst.kind = c.kind;
    inst.bytes = c.bytes;
    inst.members = groups.members(rank);
    core_.schedule_transfers(inst, rank, op, groups, c);
    return core_.add_instance(std::move(inst), key);
  }
  void join_analytic(uint32_t, uint64_t, uint32_t, const workload::CommunicatorGroups&,
                     const workload::CollectiveOp&) override {
    FAIL("no analytic instance was created");
  }
  void scaled_compute_started(uint64_t, uint32_t, const workload::ComputeOp&) override {}
  void complete(const engine::ReplayActivity&) override { FAIL("no activity of the fidelity's own kinds"); }
  void finish(engine::ReplayResult& out) const override { out.every_rank_for_routing = true; }

  uint64_t transfers = 0;

 private:
  void step(const engine::ReplayActivity& done) {
    core_.backend().start_timer(core::Seconds(kStep), core_.new_token(done));
  }
  engine::ReplayCore& core_;
};

}  // namespace

TEST_CASE("a fidelity of one's own runs a ring all-reduce on the core: 2(n-1) dependent steps") {
  for (uint32_t n : {2u, 4u, 8u}) {
    CAPTURE(n);
    const auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                                     test::link_model("100GB/s", "1us"));
    const auto trace = test::one_collective(workload::CollectiveKind::kAllReduce, n, 1e6);
    const policy::RingCollective ring;
    const auto where = policy::LinearPlacement().place({trace, machine, 0});
    engine::ReplayCore core(machine, trace, where, ring, {});
    FixedStepFidelity fidelity(core);
    const auto result = core.run(fidelity);
    // A ring all-reduce is 2(n-1) rounds; each member sends one chunk per round after the previous one.
    CHECK(result.iteration_time.value() == doctest::Approx(2.0 * (n - 1) * FixedStepFidelity::kStep));
    CHECK(fidelity.transfers == 2 * (n - 1) * n);  // every member's transfer of every round
    CHECK(result.transfer_activities == fidelity.transfers);
    CHECK(result.every_rank_for_routing);  // the fidelity finished the result
    CHECK(result.collectives == 1);
    CHECK(result.ranks.size() == n);
  }
}
