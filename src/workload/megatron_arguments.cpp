// Writing a job as Megatron-LM arguments and reading arguments into a job, through megatron_rules.
#include "workload/megatron_arguments.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "core/shell_words.hpp"
#include "workload/megatron_flag_notes.hpp"
#include "workload/megatron_rules.hpp"

namespace zs::workload {

using megatron::Flag;
using megatron::GivenArguments;
using megatron::Rule;

MegatronCommand megatron_command(const MegatronJob& job, long long save_interval) {
  MegatronCommand out;
  bool model_reached = false;
  for (const auto& rule : megatron::rules()) {
    if (rule.read == nullptr && !model_reached) {  // the plan's arguments end here
      model_reached = true;
      if (save_interval > 0) out.arguments.emplace_back("--save-interval", std::to_string(save_interval));
    }
    rule.write(job, out);
  }
  return out;
}

std::string megatron_text(const std::vector<MegatronArgument>& arguments) {
  std::string out;
  for (const auto& [flag, value] : arguments) {
    if (!out.empty()) out += ' ';
    out += flag;
    if (!value.empty()) out += ' ' + core::shell_quoted(value);
  }
  return out;
}

namespace {

const Flag* mapped_flag(std::string_view name) {
  for (const auto& rule : megatron::rules())
    for (const auto& flag : rule.flags)
      if (name == flag.name) return &flag;
  return nullptr;
}

const megatron::FlagNote* note_of(const std::vector<megatron::FlagNote>& notes, std::string_view name) {
  for (const auto& n : notes)
    if (name == n.name) return &n;
  return nullptr;
}

const megatron::FlagAlias* alias_of(std::string_view name) {
  for (const auto& a : megatron::flag_aliases())
    if (name == a.alias) return &a;
  return nullptr;
}

/// The words as flags and values; an ignored flag's value is the next word unless that is a flag.
GivenArguments parse(const std::vector<std::string>& words, GivenArguments given,
                     std::vector<std::string>& ignored) {
  for (size_t i = 0; i < words.size(); ++i) {
    std::string flag = words[i], value;
    const size_t eq = flag.find('=');
    const bool inline_value = flag.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = flag.substr(eq + 1);
      flag.resize(eq);
    }
    if (flag.rfind("--", 0) != 0 || flag.size() < 3)
      throw given.error("expected an argument starting with --, got \"" + flag + "\"");
    const bool next_is_value = i + 1 < words.size() && words[i + 1].rfind("--", 0) != 0;
    if (const auto* alias = alias_of(flag)) {
      given.add(alias->flag, alias->value);
    } else if (const Flag* f = mapped_flag(flag)) {
      if (f->takes_value && !inline_value && !next_is_value) throw given.error(flag, "expects a value");
      if (!f->takes_value && inline_value) throw given.error(flag, "is a switch and takes no value");
      if (f->takes_value && !inline_value) value = words[++i];
      given.add(flag, value);
    } else if (const auto* n = note_of(megatron::unmodelled_flags(), flag)) {
      throw given.error(flag, "is not modelled: " + std::string(n->why));
    } else if (const auto* note = note_of(megatron::ignored_flags(), flag)) {
      if (!inline_value && next_is_value) value = words[++i];
      ignored.push_back(flag + (value.empty() ? "" : " " + value) + " (" + note->why + ")");
    } else {
      throw given.error(flag,
                        "is not a Megatron-LM argument zettasim knows (the arguments it reads and "
                        "ignores are listed in docs/input-files.md)");
    }
  }
  return given;
}

/// A flag's meaning as compared: "on"/"off" for a switch, its value or what its absence means for the
/// model, in canonical form; none when it is left out and the model's file supplies it.
std::optional<std::string> meaning(const Flag& f, const std::optional<std::string>& value,
                                   const TransformerSpec& model) {
  if (!f.takes_value) return value ? "on" : "off";
  std::optional<std::string> v = value ? value : (f.absent ? f.absent(model) : std::nullopt);
  if (!v) return std::nullopt;
  if (f.canonical != nullptr) return f.canonical(*v);
  char* end = nullptr;
  const double x = std::strtod(v->c_str(), &end);
  if (!v->empty() && end != nullptr && *end == '\0') return std::to_string(x);
  return v;
}

std::string as_given(const Flag& f, const std::optional<std::string>& value) {
  if (!value) return std::string(f.name) + " left out";
  return std::string(f.name) + (f.takes_value ? " " + *value : "");
}

/// The model rules' flags against what writing the model gives.
void check_model(const GivenArguments& given, const TransformerSpec& model,
                 std::vector<std::string>& ignored) {
  MegatronCommand written;
  const MegatronJob job{model, ParallelPlan{}};
  for (const auto& rule : megatron::rules())
    if (rule.read == nullptr) rule.write(job, written);
  auto written_value = [&](const char* flag) -> std::optional<std::string> {
    for (const auto& [name, value] : written.arguments)
      if (name == flag) return value;
    return std::nullopt;
  };
  for (const auto& rule : megatron::rules()) {
    if (rule.read != nullptr) continue;
    for (const auto& f : rule.flags) {
      const auto given_value = given.has(f.name) ? std::optional(given.value(f.name)) : std::nullopt;
      const auto a = meaning(f, given_value, model), b = meaning(f, written_value(f.name), model);
      if (!a || !b || *a == *b) continue;
      const std::string model_says = as_given(f, written_value(f.name));
      if (f.lenient != nullptr && given_value) {
        ignored.push_back(as_given(f, given_value) + " (" + f.lenient + "; the model has " + model_says +
                          ")");
        continue;
      }
      throw given.error(as_given(f, given_value) + " disagrees with the model " + model.name + ", which is " +
                        model_says + " (a flag left out means Megatron-LM's default)");
    }
  }
}

}  // namespace

MegatronReading read_megatron_arguments(const std::string& text, const TransformerSpec& model,
                                        const std::string& file, const std::string& pointer) {
  std::vector<std::string> words;
  try {
    words = core::split_shell_words(text);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(file, pointer, std::string("Megatron-LM arguments: ") + e.what());
  }
  MegatronReading out;
  const GivenArguments given = parse(words, GivenArguments(file, pointer), out.ignored);
  if (model.moe == std::nullopt && given.has("--expert-tensor-parallel-size"))
    out.ignored.push_back("--expert-tensor-parallel-size " + given.value("--expert-tensor-parallel-size") +
                          " (the model has no experts)");
  check_model(given, model, out.ignored);
  for (const auto& rule : megatron::rules())
    if (rule.read != nullptr) rule.read(given, model, out.plan);
  return out;
}

nlohmann::json megatron_section(const MegatronJob& job, const nlohmann::json& section) {
  const std::string text = megatron_text(megatron_command(job).arguments);
  const auto reading = read_megatron_arguments(text, job.model, "", "");
  nlohmann::json out = {{"megatron_arguments", text}};
  for (const auto& p : ParallelPlan::params().params()) {
    if (p.name == "megatron_arguments" || !section.contains(p.name)) continue;
    const nlohmann::json& value = section.at(p.name);
    const bool given = reading.plan.contains(p.name);
    if (given ? reading.plan.at(p.name) != value : !(p.need == core::Need::kDefault && p.fallback == value))
      out[p.name] = value;
  }
  return out;
}

const std::vector<std::string>& megatron_argument_names() {
  static const std::vector<std::string> names = {
      // _add_network_size_args
      "--num-layers", "--hidden-size", "--ffn-hidden-size", "--num-attention-heads", "--kv-channels",
      "--group-query-attention", "--num-query-groups", "--max-position-embeddings",
      "--position-embedding-type", "--use-rotary-position-embeddings", "--normalization", "--swiglu",
      "--untie-embeddings-and-output-weights", "--disable-bias-linear", "--seq-length", "--vocab-size",
      "--attention-backend",
      // _add_training_args
      "--micro-batch-size", "--global-batch-size", "--recompute-granularity", "--recompute-method",
      "--recompute-num-layers", "--recompute-activations", "--use-flash-attn", "--tp-comm-overlap",
      // _add_distributed_args
      "--tensor-model-parallel-size", "--pipeline-model-parallel-size",
      "--num-layers-per-virtual-pipeline-stage", "--num-virtual-stages-per-pipeline-rank",
      "--microbatch-group-size-per-virtual-pipeline-stage", "--decoder-first-pipeline-num-layers",
      "--decoder-last-pipeline-num-layers", "--context-parallel-size", "--sequence-parallel",
      "--use-distributed-optimizer", "--overlap-grad-reduce", "--overlap-param-gather",
      "--no-overlap-p2p-communication",
      // _add_regularization_args
      "--attention-dropout", "--hidden-dropout", "--clip-grad",
      // _add_transformer_engine_args
      "--fp8-format", "--fp8-recipe",
      // _add_moe_args
      "--expert-model-parallel-size", "--expert-tensor-parallel-size", "--num-experts", "--moe-router-topk",
      "--moe-ffn-hidden-size", "--moe-shared-expert-intermediate-size", "--moe-layer-freq",
      "--moe-expert-capacity-factor", "--overlap-moe-expert-parallel-comm",
      // _add_mla_args
      "--multi-latent-attention", "--q-lora-rank", "--kv-lora-rank", "--qk-head-dim", "--qk-pos-emb-head-dim",
      "--v-head-dim",
      // _add_checkpointing_args
      "--save-interval",
      // _add_mixed_precision_args
      "--bf16", "--fp16", "--accumulate-allreduce-grads-in-fp32", "--grad-reduce-in-bf16",
      "--use-precision-aware-optimizer", "--exp-avg-dtype", "--exp-avg-sq-dtype"};
  return names;
}

}  // namespace zs::workload
