// The plans `zettasim search` weighs: the search section's keys, their defaults, and the enumeration.
#include "search/search_space.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/input_error.hpp"

namespace zs::search {
namespace {

using core::Param;
using workload::PipelineSchedule;
using workload::Recompute;

/// How routed experts split in a search section: whole on every rank, or over the tensor-parallel ranks.
enum class ExpertTensor { kWhole, kAsTensor };
const core::ChoiceNames<ExpertTensor>& expert_tensor_settings() {
  static const core::ChoiceNames<ExpertTensor> names{{ExpertTensor::kWhole, "1"},
                                                     {ExpertTensor::kAsTensor, "tensor_parallel"}};
  return names;
}

/// Largest degree a search section may name (the plan's own bound for degrees).
constexpr int64_t kMaxDegree = int64_t(1) << 20;

/// Divisors of `n` in [1, cap], ascending.
std::vector<uint32_t> divisors(uint64_t n, uint64_t cap) {
  std::vector<uint32_t> out;
  for (uint64_t d = 1; d <= std::min(n, cap); ++d)
    if (n % d == 0) out.push_back(static_cast<uint32_t>(d));
  return out;
}

/// Values of `all` that divide `of`.
std::vector<uint32_t> dividing(std::vector<uint32_t> all, uint64_t of) {
  std::erase_if(all, [&](uint32_t v) { return of % v != 0; });
  return all;
}

Param axis(std::string name, std::string doc) {
  return Param::object(std::move(name),
                       "a whole number (pinned), a list of them, or {\"min\": A, \"max\": B}", std::move(doc))
      .optional();
}

/// A degree key: pinned, listed, or the candidates `all` (uncapped) within bounds; left out, `defaults`.
std::vector<uint32_t> read_degrees(core::ParamReader* s, const char* key, std::vector<uint32_t> defaults,
                                   const std::vector<uint32_t>& all) {
  if (s == nullptr || !s->has(key)) {
    if (s != nullptr) s->record(key, defaults);
    return defaults;
  }
  const nlohmann::json& v = s->value(key);
  auto whole = [&](const nlohmann::json& x, const std::string& what) {
    if (!x.is_number_integer() || x.get<int64_t>() < 1 || x.get<int64_t>() > kMaxDegree)
      throw s->error(
          key, what + " must be a whole number in [1, " + std::to_string(kMaxDegree) + "], got " + x.dump());
    return static_cast<uint32_t>(x.get<int64_t>());
  };
  std::vector<uint32_t> out;
  if (v.is_number()) {
    out = {whole(v, "the value")};
  } else if (v.is_array() && !v.empty()) {
    for (const auto& x : v) out.push_back(whole(x, "every value"));
  } else if (v.is_object()) {
    for (const auto& [k, x] : v.items())
      if (k != "min" && k != "max") throw s->error(key, "unknown bound \"" + k + "\" (known: min, max)");
    const uint32_t lo = v.contains("min") ? whole(v["min"], "min") : 1;
    const uint32_t hi = v.contains("max") ? whole(v["max"], "max") : UINT32_MAX;
    if (lo > hi) throw s->error(key, "min " + std::to_string(lo) + " exceeds max " + std::to_string(hi));
    for (uint32_t d : all)
      if (d >= lo && d <= hi) out.push_back(d);
    if (out.empty())
      throw s->error(key, "no value in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                              "] divides what it must (the units, heads, layers, sequence or experts)");
  } else {
    throw s->error(key, "expected a whole number, a non-empty list of them, or {\"min\": A, \"max\": B}");
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  s->record(key, out);
  return out;
}

/// A key of names (one, or a list), each one of `known`; left out, `defaults`.
std::vector<std::string> read_names(core::ParamReader* s, const char* key, std::vector<std::string> defaults,
                                    const std::vector<std::string>& known, const std::string& noun) {
  if (s == nullptr || !s->has(key)) {
    if (s != nullptr) s->record(key, defaults);
    return defaults;
  }
  const nlohmann::json& v = s->value(key);
  std::vector<std::string> out;
  if (v.is_string()) out = {v.get<std::string>()};
  if (v.is_array() && !v.empty())
    for (const auto& x : v) {
      if (!x.is_string()) throw s->error(key, "every entry must be a " + noun + " name, got " + x.dump());
      out.push_back(x.get<std::string>());
    }
  if (out.empty()) throw s->error(key, "expected a " + noun + " name or a non-empty list of them");
  for (const auto& name : out)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw s->error(key, "unknown " + noun + " \"" + name + "\" (known: " + list + ")");
    }
  s->record(key, out);
  return out;
}

template <class E>
std::vector<E> read_choices(core::ParamReader* s, const char* key, const std::vector<E>& defaults,
                            const core::ChoiceNames<E>& names, const std::string& noun) {
  std::vector<std::string> written;
  for (E e : defaults) written.emplace_back(names.name(e));
  std::vector<E> out;
  for (const auto& n : read_names(s, key, written, names.names(), noun)) out.push_back(*names.find(n));
  return out;
}

/// A boolean key: one value or a list; left out, `base`.
std::vector<bool> read_flags(core::ParamReader* s, const char* key, bool base) {
  if (s == nullptr || !s->has(key)) {
    if (s != nullptr) s->record(key, base);
    return {base};
  }
  const nlohmann::json& v = s->value(key);
  std::vector<bool> out;
  if (v.is_boolean()) out = {v.get<bool>()};
  if (v.is_array() && !v.empty())
    for (const auto& x : v) {
      if (!x.is_boolean()) throw s->error(key, "every entry must be true or false, got " + x.dump());
      if (std::find(out.begin(), out.end(), x.get<bool>()) == out.end()) out.push_back(x.get<bool>());
    }
  if (out.empty()) throw s->error(key, "expected true, false, or a list of them");
  s->record(key, v);
  return out;
}

}  // namespace

const core::ParamTable& SearchSpace::params() {
  static const core::ParamTable table(
      "search", "what `zettasim search` may vary of the scenario's plan; a key left out takes its defaults",
      {axis("tensor_parallel",
            "tensor-parallel degrees (default: divisors of the units dividing the heads, "
            "at most 64)"),
       axis("pipeline_parallel", "pipeline stages (default: divisors of the units, at most the layers)"),
       axis("virtual_stages", "chunks per stage of interleaved-1f1b (default: 2 to 16)"),
       axis("context_parallel",
            "context-parallel degrees (default: divisors of the units dividing the sequence, at most 32)"),
       axis("expert_parallel", "expert-parallel degrees (default: divisors of the routed experts)"),
       Param::object("expert_tensor_parallel", "\"1\", \"tensor_parallel\", or a list of them",
                     "how routed experts split (default: both)")
           .optional(),
       axis("micro_batch", "sequences per micro-batch (default: 1, 2, 4, 8)"),
       axis("zero_stage", "ZeRO stages (default: 0 to 3)"),
       axis("global_batch", "sequences per iteration (default: the scenario's)"),
       Param::object("recompute", "a recomputation name or a list", "default: none, selective, full")
           .optional(),
       Param::object("schedule", "a schedule name or a list", "default: 1f1b, interleaved-1f1b").optional(),
       Param::object("sequence_parallel", "true, false or [false, true]",
                     "with tensor parallelism (default: true)")
           .optional(),
       Param::object("overlap_gradient_reduction", "true, false or [false, true]", "default: the scenario's")
           .optional(),
       Param::object("overlap_parameter_gather", "true, false or [false, true]", "default: the scenario's")
           .optional(),
       Param::object("overlap_tensor_communication", "true, false or [false, true]",
                     "default: the scenario's")
           .optional(),
       Param::object("overlap_pipeline_exchanges", "true, false or [false, true]", "default: the scenario's")
           .optional(),
       Param::object("overlap_expert_communication", "true, false or [false, true]",
                     "default: the scenario's")
           .optional(),
       Param::object("collective", "a collective policy name or a list", "default: the scenario's")
           .optional(),
       Param::object("placement", "a placement policy name or a list",
                     "default: the scenario's; tier 2 runs every finalist with each")
           .optional()});
  return table;
}

SearchSpace SearchSpace::read(core::ParamReader* s, const workload::TransformerSpec& model,
                              const workload::ParallelPlan& base, uint64_t units,
                              const std::vector<std::string>& collectives,
                              const std::vector<std::string>& placements, const std::string& collective,
                              const std::string& placement) {
  SearchSpace out;
  out.units = units;
  out.layers = model.layers;
  const auto heads_and_units = dividing(divisors(units, kMaxDegree), model.heads);
  out.tensor_parallel =
      read_degrees(s, "tensor_parallel", dividing(divisors(units, 64), model.heads), heads_and_units);
  out.pipeline_parallel =
      read_degrees(s, "pipeline_parallel", divisors(units, model.layers), divisors(units, model.layers));
  std::vector<uint32_t> chunks(15);
  std::iota(chunks.begin(), chunks.end(), 2u);
  out.virtual_stages = read_degrees(s, "virtual_stages", chunks, divisors(model.layers, model.layers));
  out.context_parallel = read_degrees(s, "context_parallel", dividing(divisors(units, 32), model.seq_len),
                                      dividing(divisors(units, kMaxDegree), model.seq_len));
  const uint32_t experts = model.moe ? model.moe->experts : 1;
  out.expert_parallel =
      read_degrees(s, "expert_parallel", divisors(experts, experts), divisors(experts, experts));
  const std::vector<ExpertTensor> etp_defaults =
      model.moe ? std::vector<ExpertTensor>{ExpertTensor::kWhole, ExpertTensor::kAsTensor}
                : std::vector<ExpertTensor>{ExpertTensor::kWhole};
  for (ExpertTensor e : read_choices(s, "expert_tensor_parallel", etp_defaults, expert_tensor_settings(),
                                     "expert tensor-parallel setting"))
    out.expert_tensor_parallel.push_back(e == ExpertTensor::kWhole ? 1 : 0);
  out.micro_batch = read_degrees(s, "micro_batch", {1, 2, 4, 8}, divisors(base.global_batch, 1 << 20));
  out.global_batch = read_degrees(s, "global_batch", {base.global_batch}, {base.global_batch});
  out.zero_stage = read_degrees(s, "zero_stage", {0, 1, 2, 3}, {0, 1, 2, 3});
  for (uint32_t z : out.zero_stage)
    if (z > 3) throw s->error("zero_stage", "ZeRO stages are 0 to 3, got " + std::to_string(z));
  out.recompute = read_choices(s, "recompute", {Recompute::kNone, Recompute::kSelective, Recompute::kFull},
                               workload::recomputations(), "recomputation");
  out.schedule = read_choices(s, "schedule", {PipelineSchedule::k1F1B, PipelineSchedule::kInterleaved1F1B},
                              workload::schedules(), "schedule");
  out.virtual_stages.insert(out.virtual_stages.begin(), 1);  // the schedules without chunks
  out.virtual_stages.erase(std::unique(out.virtual_stages.begin(), out.virtual_stages.end()),
                           out.virtual_stages.end());
  out.sequence_parallel = read_flags(s, "sequence_parallel", true);
  out.overlap_gradient_reduction =
      read_flags(s, "overlap_gradient_reduction", base.overlap_gradient_reduction);
  out.overlap_parameter_gather = read_flags(s, "overlap_parameter_gather", base.overlap_parameter_gather);
  out.overlap_tensor_communication =
      read_flags(s, "overlap_tensor_communication", base.overlap_tensor_communication);
  out.overlap_pipeline_exchanges =
      read_flags(s, "overlap_pipeline_exchanges", base.overlap_pipeline_exchanges);
  out.overlap_expert_communication =
      read_flags(s, "overlap_expert_communication", base.overlap_expert_communication);
  out.collective = read_names(s, "collective", {collective}, collectives, "collective policy");
  out.placement = read_names(s, "placement", {placement}, placements, "placement policy");
  if (s != nullptr) out.resolved = s->resolved();
  return out;
}

namespace {

/// The sizes of the enumeration's axes, slowest first, and a decoder of a mixed-radix index into a choice.
struct Odometer {
  const SearchSpace& space;
  std::vector<size_t> sizes() const {
    const auto& s = space;
    return {s.global_batch.size(),
            s.tensor_parallel.size(),
            s.context_parallel.size(),
            s.pipeline_parallel.size(),
            s.schedule.size(),
            s.virtual_stages.size(),
            s.expert_parallel.size(),
            s.expert_tensor_parallel.size(),
            s.micro_batch.size(),
            s.zero_stage.size(),
            s.recompute.size(),
            s.sequence_parallel.size(),
            s.overlap_gradient_reduction.size(),
            s.overlap_parameter_gather.size(),
            s.overlap_tensor_communication.size(),
            s.overlap_pipeline_exchanges.size(),
            s.overlap_expert_communication.size(),
            s.collective.size()};
  }
  PlanChoice decode(const std::vector<size_t>& i) const {
    const auto& s = space;
    PlanChoice c;
    c.global_batch = s.global_batch[i[0]];
    c.tensor_parallel = s.tensor_parallel[i[1]];
    c.context_parallel = s.context_parallel[i[2]];
    c.pipeline_parallel = s.pipeline_parallel[i[3]];
    c.schedule = s.schedule[i[4]];
    c.virtual_stages = s.virtual_stages[i[5]];
    c.expert_parallel = s.expert_parallel[i[6]];
    c.expert_tensor_parallel = s.expert_tensor_parallel[i[7]] == 0 ? c.tensor_parallel : 1;
    c.micro_batch = s.micro_batch[i[8]];
    c.zero_stage = s.zero_stage[i[9]];
    c.recompute = s.recompute[i[10]];
    c.sequence_parallel = s.sequence_parallel[i[11]] && c.tensor_parallel > 1;
    c.overlap_gradient_reduction = s.overlap_gradient_reduction[i[12]];
    c.overlap_parameter_gather = s.overlap_parameter_gather[i[13]];
    c.overlap_tensor_communication = s.overlap_tensor_communication[i[14]];
    c.overlap_pipeline_exchanges = s.overlap_pipeline_exchanges[i[15]];
    c.overlap_expert_communication = s.overlap_expert_communication[i[16]];
    c.collective = static_cast<uint32_t>(i[17]);
    return c;
  }
  /// Whether index `i` is the first of the indices that decode to the same choice (a choice met twice:
  /// expert_tensor_parallel "tensor_parallel" at tensor_parallel 1, sequence parallelism without it).
  bool first_of_its_choice(const std::vector<size_t>& i) const {
    const auto& s = space;
    if (s.tensor_parallel[i[1]] == 1) {
      if (s.expert_tensor_parallel[i[7]] == 0 &&
          std::find(s.expert_tensor_parallel.begin(), s.expert_tensor_parallel.end(), 1u) !=
              s.expert_tensor_parallel.end())
        return false;
      if (s.sequence_parallel[i[11]] && s.sequence_parallel.size() > 1) return false;
    }
    return true;
  }
};

/// Whether the choice passes the enumeration's arithmetic checks (see SearchSpace::enumerate).
bool divides(const PlanChoice& c, uint64_t units, uint32_t layers, PlanChoice& with_dp) {
  if (layers % (uint64_t(c.pipeline_parallel) * c.virtual_stages) != 0) return false;
  const uint64_t model_parallel = uint64_t(c.tensor_parallel) * c.context_parallel * c.pipeline_parallel;
  if (units % model_parallel != 0) return false;
  const bool interleaved = c.schedule == PipelineSchedule::kInterleaved1F1B;
  if (interleaved != (c.virtual_stages > 1) || (interleaved && c.pipeline_parallel == 1)) return false;
  with_dp = c;
  with_dp.data_parallel = static_cast<uint32_t>(units / model_parallel);
  if (with_dp.data_parallel % c.expert_parallel != 0) return false;
  return c.global_batch % (uint64_t(with_dp.data_parallel) * c.micro_batch) == 0;
}

}  // namespace

uint64_t SearchSpace::enumerate(const std::function<bool(const PlanChoice&, uint64_t)>& visit) const {
  const Odometer odometer{*this};
  const std::vector<size_t> sizes = odometer.sizes();
  std::vector<size_t> index(sizes.size(), 0);
  uint64_t visited = 0, looked_at = 0;
  PlanChoice choice;
  while (true) {
    ++looked_at;
    if (odometer.first_of_its_choice(index) && divides(odometer.decode(index), units, layers, choice)) {
      ++visited;
      if (!visit(choice, looked_at)) return visited;
    }
    size_t axis = sizes.size();
    while (axis > 0) {
      --axis;
      if (++index[axis] < sizes[axis]) break;
      index[axis] = 0;
      if (axis == 0) return visited;
    }
  }
}

double SearchSpace::combinations() const {
  double n = 1;
  for (size_t size : Odometer{*this}.sizes()) n *= double(size);
  return n;
}

nlohmann::json PlanChoice::workload_keys() const {
  return {{"data_parallel", data_parallel},
          {"tensor_parallel", tensor_parallel},
          {"pipeline_parallel", pipeline_parallel},
          {"context_parallel", context_parallel},
          {"expert_parallel", expert_parallel},
          {"expert_tensor_parallel", expert_tensor_parallel},
          {"micro_batch", micro_batch},
          {"global_batch", global_batch},
          {"schedule", workload::to_string(schedule)},
          {"virtual_stages", virtual_stages},
          {"sequence_parallel", sequence_parallel},
          {"zero_stage", zero_stage},
          {"recompute", workload::to_string(recompute)},
          {"overlap_gradient_reduction", overlap_gradient_reduction},
          {"overlap_parameter_gather", overlap_parameter_gather},
          {"overlap_tensor_communication", overlap_tensor_communication},
          {"overlap_pipeline_exchanges", overlap_pipeline_exchanges},
          {"overlap_expert_communication", overlap_expert_communication}};
}

std::string PlanChoice::describe() const {
  std::ostringstream s;
  s << "tp " << tensor_parallel << ", pp " << pipeline_parallel;
  if (virtual_stages > 1) s << " x " << virtual_stages << " chunks";
  s << " (" << workload::to_string(schedule) << "), dp " << data_parallel;
  if (context_parallel > 1) s << ", cp " << context_parallel;
  if (expert_parallel > 1) s << ", ep " << expert_parallel;
  if (expert_tensor_parallel > 1) s << ", etp " << expert_tensor_parallel;
  s << ", mb " << micro_batch << ", ZeRO-" << zero_stage << ", recompute " << workload::to_string(recompute);
  if (sequence_parallel) s << ", sp";
  return s.str();
}

}  // namespace zs::search
