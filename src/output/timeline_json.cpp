// A simulated iteration as Trace Event Format JSON: ranks' ops and states, point-to-point flows, and
// counters of the busiest link directions, memory pools and optical switches.
#include "output/timeline_json.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/input_error.hpp"
#include "core/version.hpp"
#include "output/rank_states.hpp"
#include "output/transfer_loads.hpp"

namespace zs::output {
namespace {

using nlohmann::json;
using Span = engine::ReplayTimeline::OpSpan;

/// One event of the file: where it sorts (time, process, track, order made) and its JSON text.
struct Event {
  double ts = 0;      ///< µs
  bool later = true;  ///< false for flow starts: at one instant they come before the ends they lead to
  uint64_t pid = 0;
  uint64_t tid = 0;
  uint64_t order = 0;
  std::string text;
};

class TimelineBuilder {
 public:
  TimelineBuilder(const scenario::Scenario& s, const engine::SimulationResult& r, const TimelineOptions& o)
      : s_(s), r_(r), o_(o), t_(*r.replay.timeline), network_pid_(s.trace.mesh.size()) {}

  Timeline build();

 private:
  static double us(double seconds) { return seconds * 1e6; }
  bool in_window(double start, double end) const { return end >= o_.from && start <= o_.to; }
  void add(double ts, uint64_t pid, uint64_t tid, const json& e) {
    events_.push_back({ts, e.at("ph") != "s", pid, tid, events_.size(), e.dump()});
  }
  void add_metadata(const char* name, uint64_t pid, std::optional<uint64_t> tid, const json& args) {
    json e = {{"name", name}, {"ph", "M"}, {"pid", pid}, {"args", args}};
    if (tid) e["tid"] = *tid;
    metadata_.push_back(e.dump());
  }
  const workload::Op& op_of(const Span& span) const {
    return s_.trace.roles[role_of_slot_[span.slot]].ops[span.op];
  }
  uint64_t rank_of(uint32_t slot) const { return r_.replay.ranks[slot].rank; }

  void choose_ranks();
  void add_rank_tracks();
  void add_op_slices();
  void add_states();
  void add_flows();
  void add_counters();
  void add_counter(const std::string& name, std::vector<std::pair<double, double>> changes);
  void add_reconfigurations();
  Timeline assemble();

  const scenario::Scenario& s_;
  const engine::SimulationResult& r_;
  const TimelineOptions& o_;
  const engine::ReplayTimeline& t_;
  const uint64_t network_pid_;
  std::vector<uint32_t> role_of_slot_;
  std::vector<bool> shown_;  ///< per slot
  std::vector<std::string> metadata_;
  std::vector<Event> events_;
  std::vector<std::string> notes_;
};

Timeline TimelineBuilder::build() {
  for (const auto& rank : r_.replay.ranks) role_of_slot_.push_back(s_.trace.role_of(rank.rank));
  choose_ranks();
  add_rank_tracks();
  add_op_slices();
  add_states();
  add_flows();
  add_counters();
  add_reconfigurations();
  return assemble();
}

void TimelineBuilder::choose_ranks() {
  shown_.assign(r_.replay.ranks.size(), false);
  bool any = false;
  for (size_t slot = 0; slot < shown_.size(); ++slot) any |= shown_[slot] = o_.ranks.contains(rank_of(slot));
  if (any) return;
  std::string simulated;
  for (size_t slot = 0; slot < shown_.size() && slot < 8; ++slot)
    simulated += (slot == 0 ? "" : ", ") + std::to_string(rank_of(slot));
  if (shown_.size() > 8) simulated += ", ...";
  throw core::InputError(
      "--timeline-ranks", "",
      "selects none of the " + std::to_string(shown_.size()) + " simulated ranks (" + simulated + ")");
}

void TimelineBuilder::add_rank_tracks() {
  const bool collapsed = r_.replay.fidelity == core::Fidelity::kCollapsed;
  std::string axes;
  for (const auto& a : r_.replay.collapsed_axes) axes += (axes.empty() ? "" : ", ") + a;
  for (size_t slot = 0; slot < shown_.size(); ++slot) {
    if (!shown_[slot]) continue;
    const uint64_t rank = rank_of(slot);
    std::string name =
        "rank " + std::to_string(rank) + " on " + s_.machine.topology.node(t_.unit_of_slot[slot]).name;
    if (collapsed)
      name += " (representative of " + std::to_string(r_.replay.ranks[slot].stands_for) +
              " ranks that differ from it only along " + axes + ")";
    add_metadata("process_name", rank, std::nullopt, {{"name", name}});
    add_metadata("process_sort_index", rank, std::nullopt, {{"sort_index", rank}});
    for (size_t stream = 0; stream < s_.trace.streams.size(); ++stream) {
      add_metadata("thread_name", rank, stream, {{"name", s_.trace.streams[stream]}});
      add_metadata("thread_sort_index", rank, stream, {{"sort_index", stream + 1}});
    }
    add_metadata("thread_name", rank, s_.trace.streams.size(), {{"name", "state"}});
    add_metadata("thread_sort_index", rank, s_.trace.streams.size(), {{"sort_index", 0}});
  }
}

/// The slice of one op: its name, kind and what it moves or computes.
json op_slice(const workload::Op& op, const Span& span, uint64_t pid,
              const std::vector<engine::ReplayTimeline::Collective>& collectives) {
  json args = {{"phase", op.phase}};
  std::string category;
  if (const auto* c = std::get_if<workload::ComputeOp>(&op.body)) {
    category = "compute";
    args["flop"] = c->flops.value();
    args["hbm_bytes"] = c->bytes.value();
  } else if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
    category = "collective";
    args["collective"] = std::string(workload::to_string(c->kind));
    args["communicator"] = c->communicator;
    args["bytes_per_rank"] = c->bytes.value();
    if (span.collective != engine::ReplayTimeline::kNone)
      args["algorithm"] = collectives.at(span.collective).algorithm;
  } else if (const auto* p = std::get_if<workload::P2POp>(&op.body)) {
    category = "p2p";
    args["direction"] = p->direction == workload::P2PDirection::kSend ? "send" : "recv";
    args["axis"] = p->axis;
    args["offset"] = p->offset;
    args["bytes"] = p->bytes.value();
  } else {
    const auto& m = std::get<workload::MemoryOp>(op.body);
    category = "memory";
    args["direction"] = m.direction == workload::MemoryDirection::kRead ? "read" : "write";
    args["bytes"] = m.bytes.value();
  }
  return {{"name", op.name},
          {"cat", category},
          {"ph", "X"},
          {"ts", span.start * 1e6},
          {"dur", (span.end - span.start) * 1e6},
          {"pid", pid},
          {"tid", op.stream},
          {"args", args}};
}

void TimelineBuilder::add_op_slices() {
  for (const auto& span : t_.spans) {
    if (!shown_[span.slot] || !in_window(span.start, span.end)) continue;
    const auto& op = op_of(span);
    add(us(span.start), rank_of(span.slot), op.stream,
        op_slice(op, span, rank_of(span.slot), t_.collectives));
    if (span.collective == engine::ReplayTimeline::kNone) continue;
    // Issued before the last member of its group: the wait, nested at the start of the collective's slice.
    const double joined = std::min(span.joined, span.end);
    if (joined > span.start)
      add(us(span.start), rank_of(span.slot), op.stream,
          {{"name", "waiting for the group"},
           {"cat", "wait"},
           {"ph", "X"},
           {"ts", us(span.start)},
           {"dur", us(joined - span.start)},
           {"pid", rank_of(span.slot)},
           {"tid", op.stream}});
  }
}

void TimelineBuilder::add_states() {
  const double end = r_.replay.iteration_time.value();
  const auto states = rank_states(t_, s_.trace, role_of_slot_, end);
  const uint64_t tid = s_.trace.streams.size();
  for (size_t slot = 0; slot < states.size(); ++slot) {
    if (!shown_[slot]) continue;
    for (const auto& interval : states[slot]) {
      if (interval.state == RankState::kIdle || !in_window(interval.start, interval.end)) continue;
      add(us(interval.start), rank_of(slot), tid,
          {{"name", to_string(interval.state)},
           {"cat", "state"},
           {"ph", "X"},
           {"ts", us(interval.start)},
           {"dur", us(interval.end - interval.start)},
           {"pid", rank_of(slot)},
           {"tid", tid}});
    }
  }
}

void TimelineBuilder::add_flows() {
  // Each op completes once, so (slot, op) finds its span.
  std::map<std::pair<uint32_t, uint32_t>, const Span*> span_of;
  for (const auto& span : t_.spans)
    if (std::holds_alternative<workload::P2POp>(op_of(span).body)) span_of[{span.slot, span.op}] = &span;
  uint64_t id = 0;
  for (const auto& pair : t_.pairs) {
    ++id;
    if (!shown_[pair.send_slot] || !shown_[pair.recv_slot]) continue;
    const Span* send = span_of.at({pair.send_slot, pair.send_op});
    const Span* recv = span_of.at({pair.recv_slot, pair.recv_op});
    if (!in_window(send->start, send->end) || !in_window(recv->start, recv->end)) continue;
    // Both anchored at the middle of the time the two slices share (the transfer itself, from the later
    // post to the completion): strictly inside each slice, and the end no earlier than the start.
    const double lo = std::max(send->start, recv->start), hi = std::min(send->end, recv->end);
    if (!(hi > lo)) continue;
    const double at = us((lo + hi) / 2);
    const auto& send_op = op_of(*send);
    add(at, rank_of(send->slot), send_op.stream,
        {{"name", "p2p"},
         {"cat", "p2p"},
         {"ph", "s"},
         {"id", id},
         {"ts", at},
         {"pid", rank_of(send->slot)},
         {"tid", send_op.stream}});
    add(at, rank_of(recv->slot), op_of(*recv).stream,
        {{"name", "p2p"},
         {"cat", "p2p"},
         {"ph", "f"},
         {"bp", "e"},
         {"id", id},
         {"ts", at},
         {"pid", rank_of(recv->slot)},
         {"tid", op_of(*recv).stream}});
  }
}

void TimelineBuilder::add_counter(const std::string& name, std::vector<std::pair<double, double>> changes) {
  std::sort(changes.begin(), changes.end());
  // The level at the window's start, then the level after each instant of change inside the window.
  std::vector<std::pair<double, double>> levels = {{o_.from, 0.0}};
  double value = 0;
  for (size_t i = 0; i < changes.size();) {
    const double at = changes[i].first;
    for (; i < changes.size() && changes[i].first == at; ++i) value += changes[i].second;
    if (value < 1e-12) value = 0;  // sums of rates that cancel, to within rounding
    if (at > o_.to) break;
    if (at <= o_.from)
      levels.front().second = value;
    else
      levels.emplace_back(at, value);
  }
  double drawn = -1;
  for (const auto& [at, level] : levels) {
    if (level == drawn) continue;  // no change to draw
    drawn = level;
    add(us(at), network_pid_, 0,
        {{"name", name},
         {"ph", "C"},
         {"ts", us(at)},
         {"pid", network_pid_},
         {"args", {{"utilization", level}}}});
  }
}

void TimelineBuilder::add_counters() {
  if (r_.replay.fidelity == core::Fidelity::kCollapsed) {
    notes_.push_back(
        "collapsed fidelity costs communication analytically, without transfers in time: no link, memory "
        "pool or optical switch counters");
    return;
  }
  add_metadata("process_name", network_pid_, std::nullopt, {{"name", "network"}});
  add_metadata("process_sort_index", network_pid_, std::nullopt, {{"sort_index", -1}});
  notes_.push_back(
      "counters: each transfer's bytes spread evenly over its lifetime, as a fraction of the bandwidth; "
      "their "
      "averages over the iteration equal summary.json's, but where transfers that shared a direction overlap "
      "only in part a counter can read above 1 for a while (the simulation shared the bandwidth between "
      "them)");
  const auto& m = s_.machine;
  const auto& topo = m.topology;
  const size_t directions = r_.replay.link_bytes.size();
  // The busiest directions: most seconds of load (bytes / bandwidth), lowest index first on ties.
  std::vector<std::pair<double, uint32_t>> load;
  for (uint32_t d = 0; d < directions; ++d)
    if (r_.replay.link_bytes[d] > 0)
      load.emplace_back(-r_.replay.link_bytes[d] / m.link_bandwidth(topology::LinkId(d / 2)).value(), d);
  std::sort(load.begin(), load.end());
  load.resize(std::min<size_t>(load.size(), o_.busiest_links));
  std::map<uint32_t, std::vector<std::pair<double, double>>> link_changes, pool_changes, optical_changes;
  for (const auto& [minus_seconds, d] : load) link_changes[d];
  using Resource = TransferLoad::Resource;
  for_each_transfer_load(m, t_, [&](const TransferLoad& l) {
    if (l.resource == Resource::kLinkDirection && link_changes.count(l.id) == 0) return;  // no counter
    auto& changes = l.resource == Resource::kMemoryPool      ? pool_changes[l.id]
                    : l.resource == Resource::kOpticalSwitch ? optical_changes[l.id]
                                                             : link_changes[l.id];
    const double rate = l.seconds / (l.end - l.start);  // fraction of the bandwidth
    changes.emplace_back(l.start, rate);
    changes.emplace_back(l.end, -rate);
  });
  for (const auto& [minus_seconds, d] : load)
    add_counter("link " + direction_name(topo, d), std::move(link_changes[d]));
  for (auto& [pool, changes] : pool_changes)
    add_counter("memory pool " + topo.node(pool).name, std::move(changes));
  for (auto& [sw, changes] : optical_changes)
    add_counter("optical switch " + topo.optical_switches()[sw].name + " circuits", std::move(changes));
}

void TimelineBuilder::add_reconfigurations() {
  for (const auto& rc : s_.circuit_reconfigurations) {
    const double at = rc.at.value();
    if (at < o_.from || at > o_.to) continue;
    add(us(at), network_pid_, 0,
        {{"name", "optical switch " + s_.machine.topology.optical_switches().at(rc.optical_switch).name +
                      " reconfigures"},
         {"cat", "optical"},
         {"ph", "i"},
         {"s", "p"},
         {"ts", us(at)},
         {"pid", network_pid_},
         {"args", {{"circuits", rc.circuits.size()}}}});
  }
}

Timeline TimelineBuilder::assemble() {
  std::sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) {
    return std::tie(a.ts, a.later, a.pid, a.tid, a.order) < std::tie(b.ts, b.later, b.pid, b.tid, b.order);
  });
  Timeline out;
  std::string& text = out.json;
  text = "{\"traceEvents\":[\n";
  bool first = true;
  auto append = [&](const std::string& line) {
    if (!first) text += ",\n";
    text += line;
    first = false;
  };
  for (const auto& line : metadata_) append(line);
  const size_t closing = 4096;  // room for the closing metadata
  size_t group_size = text.size();
  bool group_first = first;
  uint64_t group_events = 0;
  double group_ts = -1;
  for (const auto& e : events_) {
    if (e.ts != group_ts) {
      group_ts = e.ts;
      group_size = text.size();
      group_first = first;
      group_events = out.events;
    }
    if (text.size() + e.text.size() + 2 + closing > o_.max_bytes) {
      text.resize(group_size);  // events at one instant are kept or left out together
      first = group_first;
      out.events = group_events;
      out.cut_at = e.ts / 1e6;
      break;
    }
    append(e.text);
    ++out.events;
  }
  json other = {{"zettasim_version", core::kVersion},
                {"scenario", s_.name},
                {"fidelity", core::to_string(r_.replay.fidelity)},
                {"iteration_time_s", r_.replay.iteration_time.value()},
                {"time", "simulated microseconds"},
                {"notes", notes_}};
  if (out.cut_at) other["cut_at_s"] = *out.cut_at;
  text += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":" + other.dump() + "}\n";
  return out;
}

}  // namespace

Timeline timeline_json(const scenario::Scenario& s, const engine::SimulationResult& r,
                       const TimelineOptions& options) {
  if (!r.replay.timeline) throw std::logic_error("timeline_json: the run recorded no timeline");
  return TimelineBuilder(s, r, options).build();
}

Timeline write_timeline_file(const core::OutputFile& file, const scenario::Scenario& s,
                             const engine::SimulationResult& r, const TimelineOptions& options) {
  Timeline t = timeline_json(s, r, options);
  core::write_output_file(file, t.json);
  return t;
}

}  // namespace zs::output
