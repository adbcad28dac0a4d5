// Summary JSON and terminal report of one run.
#include "output/run_record.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "core/version.hpp"
#include "engine/collapsed/collapsed_costs.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "output/energy_record.hpp"

namespace zs::output {
namespace {

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%5.1f %%", 100.0 * fraction);
  return buf;
}

/// "N members".
std::string members(uint64_t n) {
  return std::to_string(n) + " members";
}

std::string line(const std::string& label, const std::string& value, const std::string& note = "") {
  std::string out = "  " + label;
  out.resize(28, ' ');
  out += value;
  if (!note.empty()) {
    if (out.size() < 40) out.resize(40, ' ');
    out += " " + note;
  }
  return out + "\n";
}

/// FLOPs per iteration over the iteration time and the job's ranks, FLOP/s (0 when the iteration took no
/// time).
double per_rank_rate(const scenario::Scenario& s, const engine::SimulationResult& r, core::Flops flops) {
  const double t = r.replay.iteration_time.value();
  return t > 0 && s.trace.mesh.size() > 0 ? flops.value() / t / double(s.trace.mesh.size()) : 0.0;
}

/// Why a run asked for collapsed fidelity ran exact.
constexpr const char* kCollapsedRanExact =
    "expert routing drawn per call makes every rank differ, so there was nothing to merge, and the trace "
    "is within exact fidelity's limit";

/// What the report says of a collective library's per-step cost under the scenario's settings.
std::string step_latency_note(const scenario::Scenario& s) {
  if (!s.machine.step_latency)
    return "a collective library's cost per algorithm step (synchronization, the network proxy) and per "
           "collective is not charged: a transfer's latency is its route's link and switch latencies (the "
           "collective policy sets step_latency false; true, the default, charges NCCL's)";
  const std::string charged =
      "a collective library's cost per algorithm step is charged as its links' step_latency (NCCL's latency "
      "per hop), a step of concurrent transfers at least the mean of theirs, a pipelined schedule on its "
      "first chunk only; its cost per collective (NCCL's base latency of its ring, tree and NVLS) is paid "
      "once before the first step (CollNet's latencies not modelled); ";
  switch (s.collective_options.protocol) {
    case policy::ProtocolSetting::kSimple:
      return charged +
             "the Simple protocol at every message size (NCCL's LL and LL128 take less per step "
             "for small messages)";
    case policy::ProtocolSetting::kAuto:
      return charged +
             "reductions and gathers under the protocol (LL, LL128, Simple) of least estimate "
             "(other collectives in flight unseen), its bytes grown by its bandwidth fraction "
             "(NCCL's per-channel caps not modelled); all-to-all and NVLS under Simple";
    default:
      return charged + "reductions and gathers under the " +
             std::string(policy::to_string(s.collective_options.protocol)) +
             " protocol, its bytes grown by its bandwidth fraction; all-to-all and NVLS under Simple";
  }
}

}  // namespace

std::vector<std::string> warnings(const scenario::Scenario& s) {
  std::vector<std::string> out;
  const uint64_t ranks = s.trace.mesh.size(), units = s.machine.unit_count();
  if (ranks < units)
    out.push_back("the job runs on " + std::to_string(ranks) + " of the machine's " + std::to_string(units) +
                  " units; the other " + std::to_string(units - ranks) +
                  " stay idle: they count in the machine's energy (idle power, hosts, ports) but in neither "
                  "peak FLOP/s nor utilization");
  return out;
}

std::vector<std::string> approximations(const scenario::Scenario& s, const engine::SimulationResult& r) {
  std::vector<std::string> out = {
      "compute efficiency is a fraction of peak per work kind (matrix, vector); matrix work depends on the "
      "FLOPs per kernel only for unit models that give matrix_half_efficiency_work; operand shapes (tile "
      "quantization) are not modelled",
      "kernel launch overhead is charged once per trace op",
      "units run at their model's speed unless the scenario gives unit_speed_variation (cv: drawn once per "
      "run per unit; op_cv: per-step jitter drawn per rank and compute op, in collapsed fidelity the slowest "
      "of the ranks a representative stands for after every op) or a straggler slows them",
      "megatron plans clip gradients by their global norm every step (the scaling pass counted as if the "
      "norm always exceeded the threshold)",
      "the arithmetic of collective reductions is not charged; a switch's in-network reduction is charged "
      "as 1 / reduction_efficiency of the wire time of the data it reduces, and NVLS's round trip of each "
      "member's reduced slice is not modelled",
      step_latency_note(s),
      "network transfers use SimGrid's fluid max-min model (CM02), not packets; each connection (source, "
      "destination) takes one fewest-hop route, chosen among equal ones by hash (ECMP per connection, not "
      "per packet); switches without a switch model add no latency beyond their links'",
      "an optical circuit reconfiguration affects transfers that start after it; a transfer already in "
      "flight on a circuit being torn down finishes on it",
      "memory check: megatron plans state per role weights, gradients (in the plan's gradient dtype) and "
      "optimizer state (ZeRO accounting) and activations (Korthikanti et al. 2022, at the schedule's peak, "
      "the pipeline's ends included; collective buffers not counted); ideal-data-parallel plans state model "
      "state (16 B/param) only",
      "model FLOPs (MFU) are the trace's own count; generated transformer traces count full (not causal) "
      "attention scores and the logits, as Megatron-LM's formula does (Narayanan et al. 2021); "
      "hardware FLOPs (HFU, as PaLM defines it) are every matrix FLOP the trace executes, recomputation "
      "included; both utilizations are against the peak of the model's dtype (bf16 under an fp8 recipe, "
      "whose fp8 products run against the fp8 peak)",
      "fp8 recipes: casts are charged as the writes of each fp8 operand's two copies (their reads fused "
      "into the kernels producing them); scaling-factor updates (amax history) are not charged, the amaxes' "
      "all-reduces are with fp8_amax_reduction",
      "expert routing: all-to-all-v sizes are drawn from the routing model per communicator group, layer "
      "and micro-batch; expert compute scales with the tokens a rank received (experts split over tensor "
      "parallelism: its group's tokens taken as tp times its own)",
      "energy: every part of the machine draws its model's power for the whole iteration (units idle, plus "
      "the load increment while computing; hosts, link ends, switch ports, memory pools, optical switches); "
      "only units vary with the work, ports draw the same whether they carry traffic or not; a packet "
      "switch's power is counted per port through its links; an optical circuit's end at a switch counts "
      "its transceiver but not the switch's share of the port; storage outside the machine is not counted"};
  if (s.software_stack)
    out.push_back(
        "software stack " + s.software_stack->describe() +
        " (from its model file, each value with its source): charged as waits on the compute "
        "stream, which the breakdown counts as compute (a straggling unit's slowdown scales them too)");
  if (s.megatron && s.megatron->plan.gradient_compression.scheme != workload::CompressionScheme::kNone)
    out.push_back(
        "gradient compression: only its time is modelled, not its effect on convergence; compression "
        "before the first collective runs on the compute stream, the rest on the data-parallel stream "
        "beside compute; its kernels are charged as passes over HBM (top-k's selection as two, PowerSGD's "
        "products in fp32 on the vector units, each bucket's weights as matrices of the hidden width's "
        "rows)");
  if (r.replay.fidelity == core::Fidelity::kCollapsed) {
    const std::string routed_per_call = members(engine::RankCollapse::kRoutedPerCallMembers);
    out.push_back(
        "collapsed fidelity: one representative rank per class of symmetric ranks (same role, differing only "
        "on the collapsed axes) is simulated and stands for its class; the breakdown, utilization and energy "
        "of the others are taken to be the representative's");
    out.push_back(
        "collapsed fidelity: collectives, point-to-point transfers and memory moves are costed without "
        "flows, "
        "step by step: the slowest route's latency plus the busiest link direction's bytes over its "
        "bandwidth, "
        "counting the concurrent copies of the same communication in the other classes' groups (up to " +
        std::to_string(engine::CollapsedCosts::kCopySample) +
        " copies explicitly, more sampled evenly and weighted where they share the representative's links); "
        "steps of a schedule do not overlap, except "
        "a pairwise all-to-all's of up to " +
        std::to_string(engine::CollapsedCosts::kReplayedPairwiseMembers) +
        " members, whose send-receive steps follow only their ends' previous step: its transfers are "
        "replayed with those dependencies on max-min shared link directions");
    out.push_back(
        "collapsed fidelity: different communications in flight at once share the link directions they load "
        "at their average rates (max-min on their speeds), so bursts within one are not seen; the copies a "
        "representative stands for move in lockstep with it");
    if (r.replay.transfer_level_collectives > 0)
      out.push_back("collapsed fidelity: a collective of at most " +
                    members(engine::RankCollapse::kTransferLevelMembers) +
                    ", all of them simulated, runs its schedule transfer by transfer, each charged as above "
                    "with its copies and started as its members join; "
                    "a route's latency is shared like its bytes");
    if (r.replay.every_rank_for_routing) {
      out.push_back("collapsed fidelity: expert routing is drawn per call (groups up to " + routed_per_call +
                    "), so no two ranks load alike and every rank is simulated (traces of at most " +
                    std::to_string(engine::RankCollapse::kIndividualRanks) +
                    " ranks within exact fidelity's limits); only the network is analytic");
    } else {
      out.push_back(
          "collapsed fidelity: an expert combine whose hottest experts' members join last charges the other "
          "members' transfers among themselves from the latest of their joins (groups up to " +
          routed_per_call + ")");
      out.push_back(
          "collapsed fidelity: an expert dispatch's representative takes the largest expert load of its "
          "group; groups up to " +
          routed_per_call + " draw their routing per call from a pool of " +
          std::to_string(engine::CollapsedCosts::kRoutingPool) +
          " draws per dispatch shape, groups over it draw once per dispatch shape and cost that draw's "
          "per-peer bytes, the combine as the dispatch with its link directions reversed");
    }
  }
  const auto& streams = s.trace.streams;
  if (std::find(streams.begin(), streams.end(), "expert-exchange") != streams.end())
    out.push_back(
        "combined 1F1B: a forward and a backward interleave at the granularity of their expert exchanges "
        "(Megatron-LM's finer split into attention, router, experts and weight gradients is not reproduced)");
  if (std::find(streams.begin(), streams.end(), "tp-overlap") != streams.end())
    out.push_back(
        "tensor-parallel overlap: each all-gather or reduce-scatter runs beside the GEMM it feeds or drains "
        "as if perfectly chunked (no pipeline fill of the first chunk); the SMs it takes slow compute only "
        "through the unit model's overlap_slowdown");
  return out;
}

/// nccl-tests' figures of a collective benchmark that took the iteration time.
nlohmann::json benchmark_json(const workload::CollectiveBenchmark& b, core::Seconds t) {
  return {{"collective", std::string(workload::to_string(b.collective))},
          {"ranks", b.ranks},
          {"size_B", b.size.value()},
          {"bus_factor", b.bus_factor()},
          {"algorithm_bandwidth_B_per_s", b.algorithm_bandwidth(t)},
          {"bus_bandwidth_B_per_s", b.bus_bandwidth(t)}};
}

nlohmann::json summary_json(const scenario::Scenario& s, const engine::SimulationResult& r) {
  const auto& crit = r.replay.critical();
  nlohmann::json j = {{"zettasim_version", core::kVersion},
                      {"scenario", s.name},
                      {"fidelity", core::to_string(r.replay.fidelity)},
                      {"iteration_time_s", r.replay.iteration_time.value()},
                      {"critical_rank", r.replay.critical_rank},
                      {"critical_rank_breakdown_s",
                       {{"compute", crit.compute.value()},
                        {"exposed_communication", crit.exposed_comm.value()},
                        {"pipeline_bubble", crit.pipeline_bubble.value()},
                        {"memory_stall", crit.memory_stall.value()},
                        {"collective_wait", crit.collective_wait.value()},
                        {"idle", crit.idle.value()}}},
                      {"critical_rank_exposed_communication_by_communicator_s",
                       [&] {
                         nlohmann::json j = nlohmann::json::object();
                         for (const auto& [name, t] : crit.exposed_by_communicator) j[name] = t.value();
                         return j;
                       }()},
                      {"utilization",
                       {{"compute_mean", r.utilization.compute_mean},
                        {"compute_min", r.utilization.compute_min},
                        {"compute_min_rank", r.utilization.compute_min_rank},
                        {"compute_max", r.utilization.compute_max},
                        {"link_max", r.utilization.link_max},
                        {"link_max_direction", r.utilization.link_max_name},
                        {"link_mean_active", r.utilization.link_mean_active},
                        {"link_directions_active", r.utilization.links_active},
                        {"link_directions_over_half", r.utilization.links_over_half},
                        {"memory_pool_max", r.utilization.pool_max}}},
                      {"model_flops_per_iteration_flop", r.model_flops.value()},
                      {"peak_flop_rate_flop_per_s", r.peak.value()},
                      {"mfu", r.mfu},
                      {"hardware_flops_per_iteration_flop", r.hardware_flops.value()},
                      {"hfu", r.hfu},
                      {"model_flop_rate_per_rank_flop_per_s", per_rank_rate(s, r, r.model_flops)},
                      {"hardware_flop_rate_per_rank_flop_per_s", per_rank_rate(s, r, r.hardware_flops)},
                      // null when the trace does not give its tokens per iteration (imported traces)
                      {"tokens_per_second", r.tokens_per_second > 0 ? nlohmann::json(r.tokens_per_second)
                                                                    : nlohmann::json(nullptr)},
                      {"units", s.machine.unit_count()},
                      {"ranks", s.trace.mesh.size()},
                      {"simulated",
                       {{"compute_activities", r.replay.compute_activities},
                        {"transfers", r.replay.transfer_activities},
                        {"memory_moves", r.replay.memory_activities},
                        {"point_to_point", r.replay.p2p_activities},
                        {"collectives", r.replay.collectives},
                        {"optical_circuit_waits", r.replay.circuit_waits}}},
                      {"policies",
                       {{"placement", r.placement_policy},
                        {"collective", r.collective_policy},
                        {"collective_algorithms", r.replay.collective_algorithms}}},
                      {"approximations", approximations(s, r)},
                      {"warnings", warnings(s)}};
  j.update(energy_json(s, r));
  if (!r.placement_layout.empty()) j["policies"]["placement_layout"] = r.placement_layout;
  if (const auto checkpoint = s.trace.checkpoint_size())
    j["checkpoint_bytes"] = {{"total", checkpoint->total.value()},
                             {"per_rank_max", checkpoint->per_rank_max.value()}};
  if (s.collective_benchmark)
    j["collective_benchmark"] = benchmark_json(*s.collective_benchmark, r.replay.iteration_time);
  if (r.collapsed_ran_exact) j["collapsed_not_applied"] = kCollapsedRanExact;
  if (!r.fidelity_reason.empty()) j["fidelity_reason"] = r.fidelity_reason;
  if (r.replay.fidelity == core::Fidelity::kCollapsed)
    j["collapsed"] = {{"axes", r.replay.collapsed_axes},
                      {"every_rank_simulated_for_routing", r.replay.every_rank_for_routing},
                      {"transfer_level_collectives", r.replay.transfer_level_collectives},
                      {"simulated_ranks", r.replay.ranks.size()},
                      {"ranks_per_representative", r.replay.ranks.empty() ? 0 : r.replay.ranks[0].stands_for},
                      {"analytic_costs", r.replay.analytic_costs},
                      {"routes", r.replay.routes_computed},
                      {"distance_maps", r.replay.distance_maps}};
  return j;
}

std::string report_text(const scenario::Scenario& s, const engine::SimulationResult& r) {
  using core::display;
  const auto& crit = r.replay.critical();
  const double t = r.replay.iteration_time.value();
  const auto& unit = s.machine.unit_model(s.machine.topology.units().front());
  std::ostringstream out;
  out << "zettasim " << core::kVersion << ": scenario \"" << s.name << "\" (" << s.file << ")\n";
  out << line("machine", s.machine.name + ": " + std::to_string(s.machine.unit_count()) + " x " +
                             unit.name() + ", generator " + s.machine.generator);
  out << line("workload", s.workload_summary);
  for (const auto& note : s.workload_notes) out << line("workload note", note);
  out << line("policies", "placement " + r.placement_policy + ", collective " + r.collective_policy);
  if (!r.placement_layout.empty()) out << line("placement layout", r.placement_layout);
  if (r.replay.fidelity == core::Fidelity::kCollapsed) {
    std::string axes;
    for (const auto& a : r.replay.collapsed_axes) axes += (axes.empty() ? "" : ", ") + a;
    out << line("fidelity",
                "collapsed: " + std::to_string(r.replay.ranks.size()) + " of " +
                    std::to_string(s.trace.mesh.size()) + " ranks simulated, each standing for " +
                    std::to_string(r.replay.ranks.empty() ? 0 : r.replay.ranks[0].stands_for) +
                    (r.replay.every_rank_for_routing
                         ? " (no axis merged: expert routing drawn per call makes every rank differ)"
                     : axes.empty() ? std::string(" (no axis merged: no two ranks are symmetric)")
                                    : " (axes " + axes + " merged)") +
                    "; communication costed analytically (" + std::to_string(r.replay.analytic_costs) +
                    " patterns)");
  } else {
    out << line(
        "fidelity",
        std::string("exact (every rank and transfer simulated)") +
            (r.collapsed_ran_exact ? "; collapsed was asked for: " + std::string(kCollapsedRanExact) : ""));
  }
  if (!r.fidelity_reason.empty()) out << line("fidelity chosen", r.fidelity_reason);
  for (const auto& w : warnings(s)) out << "  warning: " << w << "\n";
  out << "\n";
  out << line("iteration time", display(r.replay.iteration_time));
  auto part = [&](const char* name, core::Seconds v) {
    out << line(std::string("  ") + name, display(v), percent(t > 0 ? v.value() / t : 0.0));
  };
  part("compute", crit.compute);
  part("exposed communication", crit.exposed_comm);
  for (const auto& [name, v] : crit.exposed_by_communicator)
    out << line("    on " + name, display(v), percent(t > 0 ? v.value() / t : 0.0));
  part("pipeline bubble", crit.pipeline_bubble);
  part("memory stalls", crit.memory_stall);
  part("waiting in collectives", crit.collective_wait);
  part("idle", crit.idle);
  const auto& u = r.utilization;
  out << line("compute utilization", percent(u.compute_mean),
              "mean over ranks; min " + percent(u.compute_min) + " (rank " +
                  std::to_string(u.compute_min_rank) + "), max " + percent(u.compute_max));
  if (u.links_active > 0)
    out << line("link utilization", percent(u.link_max),
                "busiest direction " + u.link_max_name + "; mean " + percent(u.link_mean_active) + " over " +
                    std::to_string(u.links_active) + " active directions, " +
                    std::to_string(u.links_over_half) + " above 50%");
  if (u.pool_max > 0)
    out << line("memory pool utilization", percent(u.pool_max), "busiest pool, bytes over its ports");
  if (s.collective_benchmark) {
    const auto& b = *s.collective_benchmark;
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.4g", b.bus_factor());
    out << line("algorithm bandwidth",
                display(core::ByteRate(b.algorithm_bandwidth(r.replay.iteration_time))),
                "size / time, as nccl-tests' algbw");
    out << line("bus bandwidth", display(core::ByteRate(b.bus_bandwidth(r.replay.iteration_time))),
                "algorithm bandwidth x " + std::string(factor) + ", as nccl-tests' busbw");
  } else {
    out << line("model FLOPs utilization", percent(r.mfu),
                display(r.model_flops) + " per iteration / (iteration time x " + display(r.peak) + " peak)");
    out << line("hardware FLOPs utilization", percent(r.hfu),
                display(r.hardware_flops) + " executed per iteration, recomputation included");
    out << line("FLOP rate per rank", display(core::FlopRate(per_rank_rate(s, r, r.model_flops))) + " model",
                display(core::FlopRate(per_rank_rate(s, r, r.hardware_flops))) + " hardware");
    if (s.trace.tokens_per_iteration > 0)
      out << line("tokens per second", [&] {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.4g", r.tokens_per_second);
        return std::string(buf);
      }());
    else
      out << line("tokens per second", "unknown",
                  "the trace does not say how many tokens an iteration trains on");
  }
  if (const auto checkpoint = s.trace.checkpoint_size())
    out << line("distributed checkpoint", display(checkpoint->total),
                display(checkpoint->per_rank_max) + " on the rank that writes most; each tensor once");
  for (const auto& l : energy_report_lines(s, r)) out << line(l.label, l.value, l.note);
  out << line("simulated", std::to_string(r.replay.compute_activities) + " compute activities, " +
                               std::to_string(r.replay.transfer_activities) + " transfers, " +
                               std::to_string(r.replay.collectives) + " collectives" +
                               (r.replay.circuit_waits > 0 ? ", " + std::to_string(r.replay.circuit_waits) +
                                                                 " transfers held for optical circuits"
                                                           : ""));
  out << "  (breakdown of rank " << r.replay.critical_rank << ", the last to finish)\n";
  out << "\napproximations:\n";
  for (const auto& a : approximations(s, r)) out << "  - " << a << "\n";
  return out.str();
}

nlohmann::json config_json(const scenario::Scenario& s) {
  nlohmann::json config = s.resolved;
  config["derived"]["zettasim_version"] = core::kVersion;
  return config;
}

}  // namespace zs::output
