// The reliability section of a scenario.
#include "scenario/reliability_setup.hpp"

#include "scenario/reliability_params.hpp"

#include <algorithm>

namespace zs::scenario {
namespace {

/// One of "bandwidth", "target": "memory-pools" or "file_system" in `o` (the checkpoint section, or its
/// persistent tier); `peer_allowed`: "target" may also be "peer-memory" (read by the caller).
CheckpointStore read_checkpoint_store(core::ParamReader& o, const core::FileSource& files,
                                      bool peer_allowed) {
  const int given = int(o.has("bandwidth")) + int(o.has("target")) + int(o.has("file_system"));
  const std::string expected = std::string("expected one of \"bandwidth\" (a store's, e.g. \"2TB/s\"), ") +
                               "\"target\": \"memory-pools\"" + (peer_allowed ? " or \"peer-memory\"" : "") +
                               ", or \"file_system\" (a file-system model file)";
  if (given != 1)
    throw o.error(given == 0 ? "bandwidth" : "target",
                  given == 0 ? "missing; " + expected : expected + ", not several");
  CheckpointStore store;
  if (o.has("bandwidth")) {
    store.bandwidth = *o.find<core::ByteRate>("bandwidth");
  } else if (o.has("target")) {
    const std::string target = *o.find<std::string>("target");
    if (checkpoint_targets().find(target) != CheckpointTarget::kMemoryPools)
      throw o.error("target", expected + ", got \"" + target + "\"");
    store.kind = CheckpointStore::Kind::kMemoryPools;
  } else {
    store.kind = CheckpointStore::Kind::kFileSystem;
    o.find<std::string>("file_system");
    nlohmann::json doc = files.read_json_named(o.json(), "file_system", store.file_system_path);
    core::JsonObject model(doc, store.file_system_path, "");
    store.file_system = hw::FileSystemModel::from_json(model);
    o.record("file_system", store.file_system->to_json());  // inlined, as a machine's models are
  }
  return store;
}

}  // namespace

std::string CheckpointStore::describe() const {
  switch (kind) {
    case Kind::kBandwidth:
      return core::display(bandwidth);
    case Kind::kMemoryPools:
      return "memory-pools";
    case Kind::kFileSystem:
      return "file system " + file_system->name();
  }
  return "";
}

namespace {

/// The "checkpoint" section: its interval (a rule or a time), store, mode.
void read_checkpoint(core::ParamReader& o, const core::FileSource& files,
                     const core::Registry<policy::CheckpointRule>& rules, ReliabilitySetup& r) {
  auto c = o.part("checkpoint");
  const auto& interval = c.value("interval");
  const auto* rule = interval.is_string() ? rules.find(interval.get<std::string>()) : nullptr;
  if (rule != nullptr) {
    r.checkpoint.rule_name = rule->name;
    r.checkpoint.rule = rule->make;
    c.record("interval", rule->name);
  } else {  // a fixed interval; anything else is an error naming the rules or a time
    r.checkpoint.rule_name.clear();
    r.checkpoint.rule = nullptr;
    try {
      r.checkpoint.fixed_interval = c.json().seconds("interval", core::Bound::kPositive).value();
    } catch (const core::InputError&) {
      std::string names;
      for (const auto& e : rules.entries()) names += (names.empty() ? "\"" : ", \"") + e.name + "\"";
      throw c.error("interval", "expected " + names + " or a time such as \"30min\"");
    }
    c.record("interval", core::to_string(core::Seconds(r.checkpoint.fixed_interval)));
  }
  if (c.has("target") &&
      checkpoint_targets().find(*c.find<std::string>("target")) == CheckpointTarget::kPeerMemory) {
    r.peer_memory = true;
    for (const char* key : {"bandwidth", "file_system"})
      if (c.has(key))
        throw c.error(key, "peer-memory checkpoints name their persistent tier in \"persistent\", not here");
    if (!c.has("persistent"))
      throw c.error(
          "persistent",
          "missing; peer-memory checkpoints drain to a persistent tier: expected {\"bandwidth\": ...}, "
          "{\"target\": \"memory-pools\"} or {\"file_system\": MODEL FILE}");
    r.peer_offset = static_cast<uint32_t>(c.find<int64_t>("peer_offset").value_or(0));
    auto p = c.part("persistent");
    r.store = read_checkpoint_store(p, files, false);
    p.finish();
  } else {
    r.store = read_checkpoint_store(c, files, true);
  }
  if (c.get_choice("mode", checkpoint_modes()) == CheckpointMode::kAsync) {
    if (r.peer_memory)
      throw c.error(
          "mode",
          "peer-memory checkpoints already drain to their persistent tier in the background; leave out "
          "\"mode\"");
    r.snapshot_bandwidth = c.need<core::ByteRate>("snapshot_bandwidth", "for async checkpoints");
  }
  c.finish();
}

/// "spares": a pool of hot spare units, or the machine's idle units.
void read_spares(core::ParamReader& o, ReliabilitySetup& r) {
  if (!o.has("spares")) return;
  auto s = o.part("spares");
  if (s.has("from")) {
    if (spare_sources().find(*s.find<std::string>("from")) != SpareSource::kIdleUnits)
      throw s.error("from", "expected \"idle-units\" (the machine's units the job leaves idle)");
    if (s.has("units"))
      throw s.error("units", "give either \"units\" (a pool of that many) or \"from\", not both");
    r.re_place = true;
  } else {
    const int64_t units = s.need<int64_t>("units", "(or \"from\")");
    if (units == 0)
      throw s.error("units", "a spare pool of 0 units: leave \"spares\" out to wait for repairs instead");
    r.spares = static_cast<uint32_t>(units);
  }
  r.swap = s.get<core::Seconds>("swap");
  s.finish();
}

/// "recovery": a recovery policy of the catalog, by name.
void read_recovery(core::ParamReader& o, const policy::RecoveryRegistry& recoveries, ReliabilitySetup& r) {
  r.recovery_name = o.get<std::string>("recovery");
  const auto* entry = recoveries.find(r.recovery_name);
  if (entry == nullptr)
    throw o.error("recovery", "unknown " + recoveries.family() + " \"" + r.recovery_name +
                                  "\" (known: " + recoveries.names() + ")");
  r.recovery = entry->make();
}

/// "events": failures at given times, of components of the rate table.
void read_events(core::ParamReader& o, ReliabilitySetup& r) {
  if (!o.has("events")) return;
  for (auto& e : o.parts("events")) {
    ScriptedFailureSpec spec;
    spec.at = e.get<core::Seconds>("at");
    if (spec.at > r.horizon)
      throw e.error("at", "a failure at " + core::to_string(spec.at) + " is after the horizon (" +
                              core::to_string(r.horizon) + "), so it would never happen");
    const std::string component = e.get<std::string>("component");
    const auto& list = r.rates.components;
    auto it = std::find_if(list.begin(), list.end(), [&](const auto& c) { return c.name == component; });
    if (it == list.end()) {
      std::string known;
      for (const auto& c : list) known += (known.empty() ? "" : ", ") + c.name;
      throw e.error("component",
                    "no component \"" + component + "\" in " + r.rates.file + " (known: " + known + ")");
    }
    spec.component = static_cast<uint32_t>(it - list.begin());
    spec.instance = {e.get<std::string>("instance"), e.pointer() + "/instance"};
    e.finish();
    r.events.push_back(std::move(spec));
  }
}

/// "degradations": units running slower or links carrying less, for a while.
void read_degradations(core::ParamReader& o, ReliabilitySetup& r) {
  if (!o.has("degradations")) return;
  for (auto& d : o.parts("degradations")) {
    DegradationSpec spec;
    spec.at = d.get<core::Seconds>("at");
    if (spec.at > r.horizon)
      throw d.error("at", "a degradation from " + core::to_string(spec.at) + " starts after the horizon (" +
                              core::to_string(r.horizon) + "), so it would never happen");
    spec.duration = d.get<core::Seconds>("for");
    if (d.has("unit")) {
      spec.unit = NamedAt{*d.find<std::string>("unit"), d.pointer() + "/unit"};
      spec.factor = d.need<double>("slowdown", "for a slow unit");
    } else if (d.has("link")) {
      const auto ends =
          d.json().strings("link", "an array of the names of the link's two ends", "a node name");
      d.list("link");
      if (ends.size() != 2) throw d.error("link", "expected the names of the link's two ends");
      spec.link = {NamedAt{ends[0], d.pointer() + "/link/0"}, NamedAt{ends[1], d.pointer() + "/link/1"}};
      spec.factor = d.need<double>("bandwidth_fraction", "for a degraded link");
    } else {
      throw d.error("expected \"unit\" (with \"slowdown\") or \"link\" (with \"bandwidth_fraction\")");
    }
    d.finish();
    r.degradations.push_back(std::move(spec));
  }
}

/// "stragglers": units starting to run slower at random.
void read_stragglers(core::ParamReader& o, ReliabilitySetup& r) {
  if (!o.has("stragglers")) return;
  auto st = o.part("stragglers");
  r.straggler_rate_per_unit_hour = 3600.0 / st.get<core::Seconds>("per_unit_mtbf").value();
  r.straggler_slowdown = st.get<double>("slowdown");
  r.straggler_duration = st.get<core::Seconds>("duration");
  st.finish();
}

}  // namespace

ReliabilitySetup read_reliability(core::ParamReader& o, const core::FileSource& files,
                                  const policy::PolicyCatalog& policies) {
  ReliabilitySetup r;
  o.get<std::string>("failure_rates");
  std::string rates_path;
  nlohmann::json doc = files.read_json_named(o.json(), "failure_rates", rates_path);
  core::JsonObject rates(doc, rates_path, "");
  r.rates = reliability::FailureRates::from_json(rates);
  r.failure_rates_file = rates_path;
  o.record("failure_rates", doc);  // inlined as the file says it (its values are checked above)
  r.horizon = o.get<core::Seconds>("horizon");
  r.seeds = static_cast<uint32_t>(o.get<int64_t>("seeds"));
  read_checkpoint(o, files, policies.checkpoint_rule, r);
  r.detection = o.get<core::Seconds>("detection");
  r.restart = o.get<core::Seconds>("restart");
  r.repair = o.get<core::Seconds>("repair");
  read_spares(o, r);
  read_recovery(o, policies.recovery, r);
  read_events(o, r);
  read_degradations(o, r);
  read_stragglers(o, r);
  o.finish();
  r.resolved = o.resolved();
  return r;
}

}  // namespace zs::scenario
