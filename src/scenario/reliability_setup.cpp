// The reliability section of a scenario.
#include "scenario/reliability_setup.hpp"

namespace zs::scenario {

ReliabilitySetup read_reliability(core::JsonObject& o, const core::FileSource& files) {
  ReliabilitySetup r;
  const std::string rates_path = core::resolve_relative(o.file(), o.string("failure_rates"));
  nlohmann::json doc = files.read_json(rates_path);
  core::JsonObject rates(doc, rates_path, "");
  r.rates = policy::FailureRates::from_json(rates);
  r.horizon = o.seconds("horizon", core::Bound::kPositive).value();
  r.seeds = static_cast<uint32_t>(o.integer("seeds", 1, 100000));
  auto c = o.object("checkpoint");
  const auto* interval = c.optional("interval");
  if (interval != nullptr && interval->is_string() && (*interval == "daly" || *interval == "young")) {
    r.checkpoint.rule =
        *interval == "daly" ? policy::CheckpointPolicy::Rule::kDaly : policy::CheckpointPolicy::Rule::kYoung;
    c.string("interval");  // marks the key as read
  } else {                 // a fixed interval; anything else is an error naming "daly", "young" or a time
    if (interval == nullptr)
      throw c.error("interval", "expected \"daly\", \"young\" or a time such as \"30min\"");
    r.checkpoint.rule = policy::CheckpointPolicy::Rule::kFixed;
    r.checkpoint.fixed_interval = c.seconds("interval", core::Bound::kPositive).value();
  }
  r.checkpoint_bandwidth = c.byte_rate("bandwidth").value();
  c.finish();
  r.detection = o.seconds("detection").value();
  r.restart = o.seconds("restart").value();
  r.repair = o.seconds("repair", core::Bound::kPositive).value();
  if (o.has("spares")) {
    auto s = o.object("spares");
    const int64_t units = s.integer("units", 0, 1 << 30);
    if (units == 0)
      throw s.error("units", "a spare pool of 0 units: leave \"spares\" out to wait for repairs instead");
    r.spares = static_cast<uint32_t>(units);
    r.swap = s.seconds("swap").value();
    s.finish();
  }
  o.finish();
  r.resolved = {{"failure_rates", rates_path},
                {"failure_rates_name", r.rates.name},
                {"horizon", core::to_string(core::Seconds(r.horizon))},
                {"seeds", r.seeds},
                {"checkpoint",
                 {{"interval", r.checkpoint.describe()},
                  {"bandwidth", core::to_string(core::ByteRate(r.checkpoint_bandwidth))}}},
                {"detection", core::to_string(core::Seconds(r.detection))},
                {"restart", core::to_string(core::Seconds(r.restart))},
                {"repair", core::to_string(core::Seconds(r.repair))},
                {"spares", r.spares},
                {"swap", core::to_string(core::Seconds(r.swap))}};
  return r;
}

}  // namespace zs::scenario
