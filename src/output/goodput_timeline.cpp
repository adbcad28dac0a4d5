// The first seed's interruptions as Trace Event Format instants, a track per component kind.
#include "output/goodput_timeline.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "core/version.hpp"

namespace zs::output {

std::string goodput_timeline_json(const scenario::Scenario& s, const study::GoodputStudy& g) {
  using nlohmann::json;
  const auto& run = g.summary.first;
  std::map<std::string, uint64_t> track;  // component kind -> tid, in name order
  for (const auto& ev : run.timeline) track.emplace(ev.component, 0);
  uint64_t tid = 0;
  for (auto& [name, id] : track) id = ++tid;
  std::string text = "{\"traceEvents\":[\n";
  auto append = [&](const json& e) { text += (text.size() > 18 ? ",\n" : "") + e.dump(); };
  append({{"name", "process_name"},
          {"ph", "M"},
          {"pid", 0},
          {"args", {{"name", "job " + s.name + " (first seed)"}}}});
  append({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", 0}, {"args", {{"name", "horizon"}}}});
  for (const auto& [name, id] : track)
    append({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", id}, {"args", {{"name", name}}}});
  append({{"name", "horizon"},
          {"cat", "goodput"},
          {"ph", "X"},
          {"ts", 0.0},
          {"dur", g.horizon.value() * 1e6},
          {"pid", 0},
          {"tid", 0},
          {"args", {{"ettr", run.useful / g.horizon.value()}, {"failures", run.failures}}}});
  for (const auto& ev : run.timeline)  // in time order
    append({{"name", ev.action},
            {"cat", "failure"},
            {"ph", "i"},
            {"s", "t"},
            {"ts", ev.at * 1e6},
            {"pid", 0},
            {"tid", track.at(ev.component)},
            {"args",
             {{"component", ev.component}, {"instance", ev.instance}, {"instance_name", ev.instance_name}}}});
  json other = {{"zettasim_version", core::kVersion},
                {"scenario", s.name},
                {"time", "simulated microseconds of wall-clock training time"},
                {"notes",
                 {"the first Monte Carlo seed's interruptions as instants; the time each cost (detection, "
                  "restart, waiting, recomputation) is in goodput.json's lost_s"}}};
  text += "\n],\"displayTimeUnit\":\"ms\",\"otherData\":" + other.dump() + "}\n";
  return text;
}

}  // namespace zs::output
