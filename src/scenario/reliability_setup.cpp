// The reliability section of a scenario.
#include "scenario/reliability_setup.hpp"

#include <algorithm>

namespace zs::scenario {
namespace {

/// One of "bandwidth", "target": "memory-pools" or "file_system" in `o` (the checkpoint section, or its
/// persistent tier); `peer_allowed`: "target" may also be "peer-memory" (read by the caller).
CheckpointStore read_checkpoint_store(core::JsonObject& o, const core::FileSource& files, bool peer_allowed) {
  const int given = int(o.has("bandwidth")) + int(o.has("target")) + int(o.has("file_system"));
  const std::string expected = std::string("expected one of \"bandwidth\" (a store's, e.g. \"2TB/s\"), ") +
                               "\"target\": \"memory-pools\"" + (peer_allowed ? " or \"peer-memory\"" : "") +
                               ", or \"file_system\" (a file-system model file)";
  if (given != 1)
    throw o.error(given == 0 ? "bandwidth" : "target",
                  given == 0 ? "missing; " + expected : expected + ", not several");
  CheckpointStore store;
  if (o.has("bandwidth")) {
    store.bandwidth = o.byte_rate("bandwidth").value();
  } else if (o.has("target")) {
    const std::string target = o.string("target");
    if (target != "memory-pools") throw o.error("target", expected + ", got \"" + target + "\"");
    store.kind = CheckpointStore::Kind::kMemoryPools;
  } else {
    store.kind = CheckpointStore::Kind::kFileSystem;
    nlohmann::json doc = files.read_json_named(o, "file_system", store.file_system_path);
    core::JsonObject model(doc, store.file_system_path, "");
    store.file_system = hw::FileSystemModel::from_json(model);
  }
  return store;
}

nlohmann::json store_json(const CheckpointStore& s) {
  switch (s.kind) {
    case CheckpointStore::Kind::kBandwidth:
      return {{"bandwidth", core::to_string(core::ByteRate(s.bandwidth))}};
    case CheckpointStore::Kind::kMemoryPools:
      return {{"target", "memory-pools"}};
    case CheckpointStore::Kind::kFileSystem:
      return {{"file_system", s.file_system_path}, {"model", s.file_system->to_json()}};
  }
  return {};
}

}  // namespace

std::string CheckpointStore::describe() const {
  switch (kind) {
    case Kind::kBandwidth:
      return core::display(core::ByteRate(bandwidth));
    case Kind::kMemoryPools:
      return "memory-pools";
    case Kind::kFileSystem:
      return "file system " + file_system->name();
  }
  return "";
}

namespace {

/// The "checkpoint" section: its interval (a rule or a time), store, mode.
void read_checkpoint(core::JsonObject& o, const core::FileSource& files,
                     const core::Registry<policy::CheckpointRule>& rules, ReliabilitySetup& r) {
  auto c = o.object("checkpoint");
  const auto* interval = c.optional("interval");
  const auto* rule =
      interval != nullptr && interval->is_string() ? rules.find(interval->get<std::string>()) : nullptr;
  if (rule != nullptr) {
    r.checkpoint.rule_name = rule->name;
    r.checkpoint.rule = rule->make;
    c.string("interval");  // marks the key as read
  } else {                 // a fixed interval; anything else is an error naming the rules or a time
    if (interval == nullptr) {
      std::string names;
      for (const auto& e : rules.entries()) names += (names.empty() ? "\"" : ", \"") + e.name + "\"";
      throw c.error("interval", "expected " + names + " or a time such as \"30min\"");
    }
    r.checkpoint.rule_name.clear();
    r.checkpoint.rule = nullptr;
    r.checkpoint.fixed_interval = c.seconds("interval", core::Bound::kPositive).value();
  }
  if (c.has("target") && c.string("target") == "peer-memory") {
    r.peer_memory = true;
    for (const char* key : {"bandwidth", "file_system"})
      if (c.has(key))
        throw c.error(key, "peer-memory checkpoints name their persistent tier in \"persistent\", not here");
    if (!c.has("persistent"))
      throw c.error(
          "persistent",
          "missing; peer-memory checkpoints drain to a persistent tier: expected {\"bandwidth\": ...}, "
          "{\"target\": \"memory-pools\"} or {\"file_system\": MODEL FILE}");
    if (c.has("peer_offset")) r.peer_offset = static_cast<uint32_t>(c.integer("peer_offset", 1, 1 << 30));
    auto p = c.object("persistent");
    r.store = read_checkpoint_store(p, files, false);
    p.finish();
  } else {
    r.store = read_checkpoint_store(c, files, true);
  }
  const std::string mode = c.has("mode") ? c.string("mode") : "sync";
  if (mode == "async") {
    if (r.peer_memory)
      throw c.error(
          "mode",
          "peer-memory checkpoints already drain to their persistent tier in the background; leave out "
          "\"mode\"");
    r.snapshot_bandwidth = c.byte_rate("snapshot_bandwidth").value();
  } else if (mode != "sync") {
    throw c.error("mode", "expected \"sync\" or \"async\", got \"" + mode + "\"");
  }
  c.finish();
}

/// "spares": a pool of hot spare units, or the machine's idle units.
void read_spares(core::JsonObject& o, ReliabilitySetup& r) {
  if (o.has("spares")) {
    auto s = o.object("spares");
    if (s.has("from")) {
      if (s.string("from") != "idle-units")
        throw s.error("from", "expected \"idle-units\" (the machine's units the job leaves idle)");
      if (s.has("units"))
        throw s.error("units", "give either \"units\" (a pool of that many) or \"from\", not both");
      r.re_place = true;
    } else {
      const int64_t units = s.integer("units", 0, 1 << 30);
      if (units == 0)
        throw s.error("units", "a spare pool of 0 units: leave \"spares\" out to wait for repairs instead");
      r.spares = static_cast<uint32_t>(units);
    }
    r.swap = s.seconds("swap").value();
    s.finish();
  }
}

/// "events": failures at given times, of components of the rate table.
void read_events(core::JsonObject& o, ReliabilitySetup& r) {
  if (const auto* events = o.optional("events"); events != nullptr) {
    if (!events->is_array()) throw o.error("events", "expected an array of {at, component, instance}");
    for (size_t i = 0; i < events->size(); ++i) {
      auto e = o.element("events", (*events)[i], i);
      ScriptedFailureSpec spec;
      spec.at = e.seconds("at").value();
      if (spec.at > r.horizon)
        throw e.error("at", "a failure at " + core::to_string(core::Seconds(spec.at)) +
                                " is after the horizon (" + core::to_string(core::Seconds(r.horizon)) +
                                "), so it would never happen");
      const std::string component = e.string("component");
      const auto& list = r.rates.components;
      auto it = std::find_if(list.begin(), list.end(), [&](const auto& c) { return c.name == component; });
      if (it == list.end()) {
        std::string known;
        for (const auto& c : list) known += (known.empty() ? "" : ", ") + c.name;
        throw e.error("component",
                      "no component \"" + component + "\" in " + r.rates.file + " (known: " + known + ")");
      }
      spec.component = static_cast<uint32_t>(it - list.begin());
      spec.instance = {e.string("instance"), e.pointer() + "/instance"};
      e.finish();
      r.events.push_back(std::move(spec));
    }
  }
}

/// "degradations": units running slower or links carrying less, for a while.
void read_degradations(core::JsonObject& o, ReliabilitySetup& r) {
  if (const auto* list = o.optional("degradations"); list != nullptr) {
    if (!list->is_array()) throw o.error("degradations", "expected an array of {at, for, unit or link, ...}");
    for (size_t i = 0; i < list->size(); ++i) {
      auto d = o.element("degradations", (*list)[i], i);
      DegradationSpec spec;
      spec.at = d.seconds("at").value();
      if (spec.at > r.horizon)
        throw d.error("at", "a degradation from " + core::to_string(core::Seconds(spec.at)) +
                                " starts after the horizon (" + core::to_string(core::Seconds(r.horizon)) +
                                "), so it would never happen");
      spec.duration = d.seconds("for", core::Bound::kPositive).value();
      if (d.has("unit")) {
        spec.unit = NamedAt{d.string("unit"), d.pointer() + "/unit"};
        spec.factor = d.number("slowdown", 1.0, 1e6);
      } else if (d.has("link")) {
        const auto ends = d.strings("link", "an array of the names of the link's two ends", "a node name");
        if (ends.size() != 2) throw d.error("link", "expected the names of the link's two ends");
        spec.link = {NamedAt{ends[0], d.pointer() + "/link/0"}, NamedAt{ends[1], d.pointer() + "/link/1"}};
        spec.factor = d.number("bandwidth_fraction", 1e-6, 1.0);
      } else {
        throw d.error("expected \"unit\" (with \"slowdown\") or \"link\" (with \"bandwidth_fraction\")");
      }
      d.finish();
      r.degradations.push_back(std::move(spec));
    }
  }
}

/// "stragglers": units starting to run slower at random.
void read_stragglers(core::JsonObject& o, ReliabilitySetup& r) {
  if (o.has("stragglers")) {
    auto st = o.object("stragglers");
    r.straggler_rate_per_unit_hour = 3600.0 / st.seconds("per_unit_mtbf", core::Bound::kPositive).value();
    r.straggler_slowdown = st.number("slowdown", 1.0, 1e6);
    r.straggler_duration = st.seconds("duration", core::Bound::kPositive).value();
    st.finish();
  }
}

/// The section as resolved, for config.json.
void resolve(ReliabilitySetup& r, const std::string& rates_path) {
  r.resolved = {{"failure_rates", rates_path},
                {"failure_rates_name", r.rates.name},
                {"horizon", core::to_string(core::Seconds(r.horizon))},
                {"seeds", r.seeds},
                {"checkpoint", {{"interval", r.checkpoint.describe()}}},
                {"detection", core::to_string(core::Seconds(r.detection))},
                {"restart", core::to_string(core::Seconds(r.restart))},
                {"repair", core::to_string(core::Seconds(r.repair))},
                {"spares", r.re_place ? nlohmann::json("idle-units") : nlohmann::json(r.spares)},
                {"swap", core::to_string(core::Seconds(r.swap))},
                {"elastic", r.elastic},
                {"checkpoint_mode", r.snapshot_bandwidth > 0 ? "async" : "sync"},
                {"scripted_events", r.events.size()},
                {"degradations", r.degradations.size()},
                {"straggler_rate_per_unit_hour", r.straggler_rate_per_unit_hour},
                {"straggler_slowdown", r.straggler_slowdown},
                {"straggler_duration", core::to_string(core::Seconds(r.straggler_duration))}};
  if (r.peer_memory) {
    r.resolved["checkpoint"]["target"] = "peer-memory";
    r.resolved["checkpoint"]["persistent"] = store_json(r.store);
    r.resolved["checkpoint"]["peer_offset"] =
        r.peer_offset == 0 ? nlohmann::json("half the data-parallel axis") : nlohmann::json(r.peer_offset);
  } else {
    r.resolved["checkpoint"].update(store_json(r.store));
  }
  if (r.snapshot_bandwidth > 0)
    r.resolved["checkpoint"]["snapshot_bandwidth"] = core::to_string(core::ByteRate(r.snapshot_bandwidth));
}

}  // namespace

ReliabilitySetup read_reliability(core::JsonObject& o, const core::FileSource& files,
                                  const core::Registry<policy::CheckpointRule>& rules) {
  ReliabilitySetup r;
  std::string rates_path;
  nlohmann::json doc = files.read_json_named(o, "failure_rates", rates_path);
  core::JsonObject rates(doc, rates_path, "");
  r.rates = reliability::FailureRates::from_json(rates);
  r.horizon = o.seconds("horizon", core::Bound::kPositive).value();
  r.seeds = static_cast<uint32_t>(o.integer("seeds", 1, 100000));
  read_checkpoint(o, files, rules, r);
  r.detection = o.has("detection") ? o.seconds("detection").value() : kDefaultDetection;
  r.restart = o.has("restart") ? o.seconds("restart").value() : kDefaultRestart;
  r.repair = o.seconds("repair", core::Bound::kPositive).value();
  read_spares(o, r);
  r.elastic = o.boolean_or("elastic", false);
  read_events(o, r);
  read_degradations(o, r);
  read_stragglers(o, r);
  o.finish();
  resolve(r, rates_path);
  return r;
}

}  // namespace zs::scenario
