// Parameter declarations: construction, and the words the docs and `zettasim params` print.
#include "core/param_table.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/units.hpp"

namespace zs::core {
namespace {

Param make(std::string name, ParamKind kind, std::string doc) {
  Param p;
  p.name = std::move(name);
  p.kind = kind;
  p.doc = std::move(doc);
  return p;
}

Param quantity(std::string name, ParamKind kind, std::string doc, Bound bound) {
  Param p = make(std::move(name), kind, std::move(doc));
  p.bound = bound;
  return p;
}

template <class Q>
std::string range_text() {
  constexpr PhysicalRange r = physical_range<Q>();
  return to_string(Q(r.min)) + " to " + to_string(Q(r.max));
}

/// A quantity kind's physical range in words ("1B to 1e+24B").
std::string physical_range_text(ParamKind kind) {
  switch (kind) {
    case ParamKind::kBytes:
      return range_text<Bytes>();
    case ParamKind::kSeconds:
      return range_text<Seconds>();
    case ParamKind::kFlops:
      return range_text<Flops>();
    case ParamKind::kFlopRate:
      return range_text<FlopRate>();
    case ParamKind::kByteRate:
      return range_text<ByteRate>();
    case ParamKind::kWatts:
      return range_text<Watts>();
    default:
      return "";
  }
}

bool is_quantity(ParamKind kind) {
  switch (kind) {
    case ParamKind::kBytes:
    case ParamKind::kSeconds:
    case ParamKind::kFlops:
    case ParamKind::kFlopRate:
    case ParamKind::kByteRate:
    case ParamKind::kWatts:
      return true;
    default:
      return false;
  }
}

}  // namespace

Param Param::text(std::string name, std::string doc) {
  return make(std::move(name), ParamKind::kText, std::move(doc));
}
Param Param::number(std::string name, double min, double max, std::string doc) {
  Param p = make(std::move(name), ParamKind::kNumber, std::move(doc));
  p.min = min;
  p.max = max;
  return p;
}
Param Param::integer(std::string name, int64_t min, int64_t max, std::string doc) {
  Param p = make(std::move(name), ParamKind::kInteger, std::move(doc));
  p.min = double(min);
  p.max = double(max);
  return p;
}
Param Param::boolean(std::string name, std::string doc) {
  return make(std::move(name), ParamKind::kBoolean, std::move(doc));
}
Param Param::choice(std::string name, std::vector<std::string> choices, std::string doc) {
  Param p = make(std::move(name), ParamKind::kText, std::move(doc));
  p.choices = std::move(choices);
  return p;
}
Param Param::file_kind(FileKind kind, std::string what) {
  Param p = make("kind", ParamKind::kText, "what the file is: " + what);
  p.choices = {to_string(kind)};
  p.kind_of = std::move(what);
  return p;
}
Param Param::bytes(std::string name, std::string doc) {
  return quantity(std::move(name), ParamKind::kBytes, std::move(doc), Bound::kPositive);
}
Param Param::seconds(std::string name, std::string doc) {
  return quantity(std::move(name), ParamKind::kSeconds, std::move(doc), Bound::kNonNegative);
}
Param Param::flops(std::string name, std::string doc) {
  return quantity(std::move(name), ParamKind::kFlops, std::move(doc), Bound::kPositive);
}
Param Param::flop_rate(std::string name, std::string doc) {
  return quantity(std::move(name), ParamKind::kFlopRate, std::move(doc), Bound::kPositive);
}
Param Param::byte_rate(std::string name, std::string doc) {
  return quantity(std::move(name), ParamKind::kByteRate, std::move(doc), Bound::kPositive);
}
Param Param::watts(std::string name, std::string doc) {
  return quantity(std::move(name), ParamKind::kWatts, std::move(doc), Bound::kPositive);
}
Param Param::object(std::string name, std::string value, std::string doc) {
  Param p = make(std::move(name), ParamKind::kObject, std::move(doc));
  p.value = std::move(value);
  return p;
}
Param Param::object(std::string name, const ParamTable& part, std::string doc) {
  Param p = make(std::move(name), ParamKind::kObject, std::move(doc));
  p.value = "a " + part.type();
  p.part = &part;
  return p;
}
Param Param::list(std::string name, std::string value, std::string doc) {
  Param p = make(std::move(name), ParamKind::kList, std::move(doc));
  p.value = std::move(value);
  return p;
}
Param Param::list(std::string name, const ParamTable& part, std::string doc) {
  Param p = make(std::move(name), ParamKind::kList, std::move(doc));
  p.value = "one " + part.type() + " per entry";
  p.part = &part;
  return p;
}

Param& Param::optional() {
  need = Need::kOptional;
  return *this;
}
Param& Param::or_default(nlohmann::json written) {
  need = Need::kDefault;
  fallback = std::move(written);
  return *this;
}
Param& Param::cite() {
  cited = true;
  return *this;
}
Param& Param::non_negative() {
  bound = Bound::kNonNegative;
  return *this;
}
Param& Param::positive() {
  bound = Bound::kPositive;
  return *this;
}
Param& Param::noun(std::string what) {
  called = std::move(what);
  return *this;
}

std::string Param::unit() const {
  switch (kind) {
    case ParamKind::kText: {
      if (choices.empty()) return "text";
      if (!kind_of.empty()) return "the constant \"" + choices.front() + "\"";
      std::string out = "one of";
      for (size_t i = 0; i < choices.size(); ++i) out += (i == 0 ? " \"" : ", \"") + choices[i] + "\"";
      return out;
    }
    case ParamKind::kNumber:
      return "number";
    case ParamKind::kInteger:
      return "whole number";
    case ParamKind::kBoolean:
      return "true or false";
    case ParamKind::kBytes:
      return "B (\"80GiB\", \"1.5TB\")";
    case ParamKind::kSeconds:
      return "s (\"5us\", \"30min\")";
    case ParamKind::kFlops:
      return "FLOP (\"2.5PFLOP\")";
    case ParamKind::kFlopRate:
      return "FLOP/s (\"989TFLOP/s\")";
    case ParamKind::kByteRate:
      return "B/s (\"400Gb/s\", \"3.35TB/s\")";
    case ParamKind::kWatts:
      return "W (\"700W\")";
    case ParamKind::kObject:
      return "object: " + value;
    case ParamKind::kList:
      return "array: " + value;
  }
  return "";
}

namespace {

int64_t saturated(double v) {
  constexpr double kTop = 9223372036854775807.0;  // rounds to 2^63
  if (v >= kTop) return INT64_MAX;
  if (v <= -kTop) return INT64_MIN;
  return int64_t(v);
}

}  // namespace

int64_t Param::min_integer() const {
  return saturated(min);
}
int64_t Param::max_integer() const {
  return saturated(max);
}

std::string Param::range() const {
  if (kind == ParamKind::kNumber)
    return "[" + nlohmann::json(min).dump() + ", " + nlohmann::json(max).dump() + "]";
  if (kind == ParamKind::kInteger)
    return "[" + std::to_string(min_integer()) + ", " + std::to_string(max_integer()) + "]";
  if (is_quantity(kind)) return (bound == Bound::kPositive ? "" : "0 or ") + physical_range_text(kind);
  return "";
}

std::string Param::default_text() const {
  switch (need) {
    case Need::kRequired:
      return "required";
    case Need::kOptional:
      return "optional";
    case Need::kDefault:
      return fallback.dump();
  }
  return "";
}

ParamTable::ParamTable(std::string type, std::string doc, std::vector<Param> params)
    : type_(std::move(type)), doc_(std::move(doc)), params_(std::move(params)) {
  for (size_t i = 0; i < params_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (params_[i].name == params_[j].name)
        throw std::logic_error(type_ + " declares \"" + params_[i].name + "\" twice");
}

const Param* ParamTable::find(std::string_view name) const {
  for (const auto& p : params_)
    if (p.name == name) return &p;
  return nullptr;
}

bool ParamTable::cites() const {
  for (const auto& p : params_)
    if (p.cited) return true;
  return false;
}

ParamTable ParamTable::with(const ParamTable& more) const {
  std::vector<Param> all = params_;
  all.insert(all.end(), more.params_.begin(), more.params_.end());
  return ParamTable(more.type_, more.doc_, std::move(all));
}

ParamTable model_table(FileKind kind, std::string doc, std::vector<Param> params) {
  std::string what = to_string(kind);  // "compute-unit" -> "a compute unit model"
  std::replace(what.begin(), what.end(), '-', ' ');
  what = (std::string("aeiou").find(what.front()) == std::string::npos ? "a " : "an ") + what + " model";
  std::vector<Param> all{Param::file_kind(kind, what),
                         Param::text("name", "the model's name, as reports print it"),
                         Param::text("description", "one line: what is modelled").or_default("")};
  bool cites = false;
  for (auto& p : params) {
    cites = cites || p.cited;
    all.push_back(std::move(p));
  }
  if (cites)
    all.push_back(Param::object("sources", "parameter name -> citation",
                                "the published source of every parameter the file sets (paper, "
                                "datasheet, URL), or \"assumption: ...\""));
  return ParamTable(to_string(kind), std::move(doc), std::move(all));
}

}  // namespace zs::core
