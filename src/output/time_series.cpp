// Sampling a recorded run on a fixed grid: link, pool and optical switch utilization, rank states.
#include "output/time_series.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "core/input_error.hpp"
#include "core/version.hpp"
#include "output/hdf5_file.hpp"
#include "output/rank_states.hpp"
#include "output/transfer_loads.hpp"

namespace zs::output {
namespace {

using Interval = std::pair<double, double>;

/// A row of samples of `step` s to which amounts spread over time intervals are added.
class SampleRow {
 public:
  SampleRow(double* row, size_t samples, double step) : row_(row), samples_(samples), step_(step) {}

  /// Adds, to each sample, the part of `amount` (s of full use) that falls in it when spread evenly over
  /// [start, end], divided by the step: the sample's average use.
  void spread(double start, double end, double amount) const {
    if (!(end > start)) return;
    const double per_second = amount / (end - start);
    const size_t first = size_t(start / step_), last = std::min(samples_ - 1, size_t(end / step_));
    for (size_t i = first; i <= last && i < samples_; ++i) {
      const double lo = std::max(start, double(i) * step_), hi = std::min(end, double(i + 1) * step_);
      if (hi > lo) row_[i] += per_second * (hi - lo) / step_;
    }
  }
  /// Adds the share of each sample that [start, end] covers.
  void cover(double start, double end) const { spread(start, end, end - start); }

 private:
  double* row_;
  size_t samples_;
  double step_;
};

std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const auto& i : v) {
    if (!out.empty() && i.first <= out.back().second)
      out.back().second = std::max(out.back().second, i.second);
    else
      out.push_back(i);
  }
  return out;
}

/// The parts of merged intervals `a` outside merged intervals `b`.
std::vector<Interval> minus(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  size_t j = 0;
  for (auto [start, end] : a) {
    while (j < b.size() && b[j].second <= start) ++j;
    for (size_t k = j; k < b.size() && b[k].first < end; ++k) {
      if (b[k].first > start) out.emplace_back(start, b[k].first);
      start = std::max(start, b[k].second);
    }
    if (end > start) out.emplace_back(start, end);
  }
  return out;
}

/// Per node, the fewest links between it and a unit (units: 0), over every link.
std::vector<uint32_t> hops_from_units(const topology::Topology& topo) {
  std::vector<uint32_t> hops(topo.nodes().size(), UINT32_MAX);
  std::vector<topology::NodeId> frontier;
  for (topology::NodeId n = 0; n < topo.nodes().size(); ++n)
    if (topo.node(n).kind == topology::NodeKind::kUnit) {
      hops[n] = 0;
      frontier.push_back(n);
    }
  for (size_t i = 0; i < frontier.size(); ++i)
    for (auto [next, link] : topo.neighbours(frontier[i]))
      if (hops[next] == UINT32_MAX) {
        hops[next] = hops[frontier[i]] + 1;
        frontier.push_back(next);
      }
  return hops;
}

/// The tier of a link, for grouping: what it joins (units, switches by their distance from the units,
/// memory pools, optical circuits) and its model.
std::string link_tier(const topology::Machine& m, topology::LinkId l, const std::vector<uint32_t>& hops) {
  const auto& topo = m.topology;
  const auto& link = topo.link(l);
  const std::string model = " (" + m.link_model(l).name() + ")";
  if (link.circuit != topology::kNoCircuit) return "optical circuit" + model;
  auto kind = [&](topology::NodeId n) { return topo.node(n).kind; };
  for (auto end : {link.a, link.b})
    if (kind(end) == topology::NodeKind::kMemory) return "memory pool" + model;
  if (kind(link.a) == topology::NodeKind::kUnit && kind(link.b) == topology::NodeKind::kUnit)
    return "unit - unit" + model;
  if (kind(link.a) == topology::NodeKind::kUnit || kind(link.b) == topology::NodeKind::kUnit)
    return "unit - switch" + model;
  const uint32_t lo = std::min(hops[link.a], hops[link.b]), hi = std::max(hops[link.a], hops[link.b]);
  return "switch level " + std::to_string(lo) + " - " + std::to_string(hi) + model;
}

void add_network(TimeSeries& t, const scenario::Scenario& s, const engine::SimulationResult& r) {
  const auto& m = s.machine;
  const auto& topo = m.topology;
  std::vector<int> row_of(r.replay.link_bytes.size(), -1);
  const auto hops = hops_from_units(topo);
  for (uint32_t d = 0; d < r.replay.link_bytes.size(); ++d) {
    if (!(r.replay.link_bytes[d] > 0)) continue;
    row_of[d] = int(t.link_directions.size());
    t.link_directions.push_back(d);
    t.link_names.push_back(direction_name(topo, d));
    t.link_tiers.push_back(link_tier(m, topology::LinkId(d / 2), hops));
  }
  t.link_utilization.assign(t.link_directions.size() * t.samples, 0.0);
  std::map<uint32_t, std::vector<double>> pools, optical;
  using Resource = TransferLoad::Resource;
  for_each_transfer_load(m, *r.replay.timeline, [&](const TransferLoad& l) {
    double* row = nullptr;
    if (l.resource == Resource::kLinkDirection) {
      row = &t.link_utilization[size_t(row_of[l.id]) * t.samples];  // a direction that carried bytes
    } else {
      auto& series = (l.resource == Resource::kMemoryPool ? pools : optical)[l.id];
      series.resize(t.samples, 0.0);
      row = series.data();
    }
    SampleRow(row, t.samples, t.step).spread(l.start, l.end, l.seconds);
  });
  for (auto& [pool, row] : pools) {
    t.pool_names.push_back(topo.node(pool).name);
    t.pool_utilization.insert(t.pool_utilization.end(), row.begin(), row.end());
  }
  for (auto& [sw, row] : optical) {
    t.optical_names.push_back(topo.optical_switches()[sw].name);
    t.optical_utilization.insert(t.optical_utilization.end(), row.begin(), row.end());
  }
}

void add_ranks(TimeSeries& t, const scenario::Scenario& s, const engine::SimulationResult& r) {
  const auto& rec = *r.replay.timeline;
  const size_t slots = r.replay.ranks.size();
  std::vector<uint32_t> role_of_slot;
  for (const auto& rank : r.replay.ranks) {
    t.ranks.push_back(rank.rank);
    t.stands_for.push_back(rank.stands_for);
    role_of_slot.push_back(s.trace.role_of(rank.rank));
  }
  for (int k = 0; k < kRankStates; ++k) t.states.push_back(to_string(RankState(k)));
  t.state_share.assign(slots * kRankStates * t.samples, 0.0);
  const auto states = rank_states(rec, s.trace, role_of_slot, t.iteration_time);
  for (size_t slot = 0; slot < slots; ++slot)
    for (const auto& i : states[slot])
      SampleRow(&t.state_share[(slot * kRankStates + size_t(i.state)) * t.samples], t.samples, t.step)
          .cover(i.start, i.end);
  // Per communicator: its collectives in flight, less the time any compute ran.
  std::map<std::string, std::vector<std::vector<Interval>>> collective_spans;
  std::vector<std::vector<Interval>> compute(slots);
  for (const auto& span : rec.spans) {
    const auto& op = s.trace.roles[role_of_slot[span.slot]].ops[span.op];
    if (std::holds_alternative<workload::ComputeOp>(op.body))
      compute[span.slot].emplace_back(span.start, span.end);
    if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
      auto& per_slot = collective_spans[c->communicator];
      per_slot.resize(slots);
      // Its transfers' time: waiting for the group's last member is not communication.
      per_slot[span.slot].emplace_back(std::max(span.start, std::min(span.joined, span.end)), span.end);
    }
  }
  for (auto& c : compute) c = merged(std::move(c));
  t.exposed_share.assign(collective_spans.size() * slots * t.samples, 0.0);
  size_t k = 0;
  for (auto& [name, per_slot] : collective_spans) {
    t.communicators.push_back(name);
    for (size_t slot = 0; slot < slots; ++slot)
      for (const auto& [a, b] : minus(merged(std::move(per_slot[slot])), compute[slot]))
        SampleRow(&t.exposed_share[(k * slots + slot) * t.samples], t.samples, t.step).cover(a, b);
    ++k;
  }
}

}  // namespace

double default_time_series_step(double iteration) {
  const double wanted = std::max(iteration, 1e-9) / 1000;
  const double decade = std::pow(10.0, std::floor(std::log10(wanted)));
  for (double f : {1.0, 2.0, 5.0})
    if (f * decade >= wanted * (1 - 1e-12)) return f * decade;
  return 10 * decade;
}

TimeSeries time_series(const scenario::Scenario& s, const engine::SimulationResult& r, double step) {
  if (!r.replay.timeline) throw std::logic_error("time_series: the run recorded no timeline");
  TimeSeries t;
  t.step = step;
  t.iteration_time = r.replay.iteration_time.value();
  const double samples = std::ceil(t.iteration_time / step);
  if (!(step > 0) || samples > double(kMaxTimeSeriesSamples))
    throw core::InputError("--timeseries-step", "",
                           "a step of " + core::to_string(core::Seconds(step)) + " makes more than " +
                               std::to_string(kMaxTimeSeriesSamples) + " samples of the " +
                               core::to_string(r.replay.iteration_time) + " iteration: use a longer step");
  t.samples = std::max<size_t>(1, size_t(samples));
  if (r.replay.fidelity == core::Fidelity::kExact) add_network(t, s, r);
  add_ranks(t, s, r);
  return t;
}

void write_time_series_hdf5(const std::string& path, const scenario::Scenario& s,
                            const engine::SimulationResult& r, const TimeSeries& t) {
  write_hdf5_atomically(path, [&](hid_t file) {
    write_hdf5_text_attribute(file, "zettasim_version", core::kVersion);
    write_hdf5_text_attribute(file, "scenario", s.name);
    write_hdf5_text_attribute(file, "fidelity", std::string(core::to_string(r.replay.fidelity)));
    write_hdf5_reals(file, "step_s", {1}, {t.step});
    write_hdf5_reals(file, "iteration_time_s", {1}, {t.iteration_time});
    std::vector<double> start(t.samples);
    for (size_t i = 0; i < t.samples; ++i) start[i] = double(i) * t.step;
    write_hdf5_reals(file, "time_s", {t.samples}, start);
    auto series = [&](const char* group, const std::vector<std::string>& names,
                      const std::vector<double>& values) {
      Hdf5Handle g = create_hdf5_group(file, group);
      write_hdf5_texts(g, "name", names);
      write_hdf5_reals(g, "utilization", {names.size(), t.samples}, values);
      return g;
    };
    {
      Hdf5Handle links = series("links", t.link_names, t.link_utilization);
      write_hdf5_texts(links, "tier", t.link_tiers);
      write_hdf5_integers(links, "direction", {t.link_directions.begin(), t.link_directions.end()});
    }
    series("memory_pools", t.pool_names, t.pool_utilization);
    series("optical_switches", t.optical_names, t.optical_utilization);
    Hdf5Handle ranks = create_hdf5_group(file, "ranks");
    write_hdf5_integers(ranks, "rank", {t.ranks.begin(), t.ranks.end()});
    write_hdf5_integers(ranks, "stands_for", {t.stands_for.begin(), t.stands_for.end()});
    write_hdf5_texts(ranks, "state_name", t.states);
    write_hdf5_reals(ranks, "state", {t.ranks.size(), t.states.size(), t.samples}, t.state_share);
    write_hdf5_texts(ranks, "communicator", t.communicators);
    write_hdf5_reals(ranks, "exposed_by_communicator", {t.communicators.size(), t.ranks.size(), t.samples},
                     t.exposed_share);
  });
}

TimeSeries write_time_series_file(const core::OutputFile& file, const scenario::Scenario& s,
                                  const engine::SimulationResult& r, double step) {
  TimeSeries t =
      time_series(s, r, step > 0 ? step : default_time_series_step(r.replay.iteration_time.value()));
  core::check_output_file(file);
  try {
    write_time_series_hdf5(file.path.string(), s, r, t);
  } catch (const core::InputError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw core::InputError(file.option, "", e.what());
  }
  return t;
}

}  // namespace zs::output
