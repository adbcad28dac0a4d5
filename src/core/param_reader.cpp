// Reading one object by its parameter table, recording the resolved values.
#include "core/param_reader.hpp"

#include <algorithm>
#include <stdexcept>

namespace zs::core {
namespace {

template <class T>
constexpr ParamKind kind_of();
template <>
constexpr ParamKind kind_of<std::string>() {
  return ParamKind::kText;
}
template <>
constexpr ParamKind kind_of<double>() {
  return ParamKind::kNumber;
}
template <>
constexpr ParamKind kind_of<int64_t>() {
  return ParamKind::kInteger;
}
template <>
constexpr ParamKind kind_of<bool>() {
  return ParamKind::kBoolean;
}
template <>
constexpr ParamKind kind_of<Bytes>() {
  return ParamKind::kBytes;
}
template <>
constexpr ParamKind kind_of<Seconds>() {
  return ParamKind::kSeconds;
}
template <>
constexpr ParamKind kind_of<Flops>() {
  return ParamKind::kFlops;
}
template <>
constexpr ParamKind kind_of<FlopRate>() {
  return ParamKind::kFlopRate;
}
template <>
constexpr ParamKind kind_of<ByteRate>() {
  return ParamKind::kByteRate;
}
template <>
constexpr ParamKind kind_of<Watts>() {
  return ParamKind::kWatts;
}

/// A value as a file writes it.
template <class T>
nlohmann::json written(const T& v) {
  if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T>)
    return v;
  else
    return to_string(v);
}

}  // namespace

ParamReader::ParamReader(const ParamTable& table, JsonObject json)
    : ParamReader(table, std::move(json), std::make_shared<nlohmann::json>(nlohmann::json::object()), "") {}

ParamReader::ParamReader(const ParamTable& table, JsonObject json, std::shared_ptr<nlohmann::json> root,
                         std::string at)
    : table_(&table), json_(std::move(json)), root_(std::move(root)), at_(std::move(at)) {
  slot() = nlohmann::json::object();
}

bool ParamReader::has(std::string_view name) const {
  declared(name);
  return json_.has(name);
}

const Param& ParamReader::declared(std::string_view name) const {
  if (const Param* p = table_->find(name)) return *p;
  throw std::logic_error(table_->type() + " reads \"" + std::string(name) +
                         "\", which its table does not declare");
}

template <class T>
T ParamReader::read(const Param& p, JsonObject& from) {
  if constexpr (std::is_same_v<T, std::string>) {
    std::string v = from.string(p.name);
    if (!p.kind_of.empty() && v != p.choices.front())
      throw from.error(p.name,
                       "expected \"" + p.choices.front() + "\" for " + p.kind_of + ", got \"" + v + "\"");
    if (!p.choices.empty() && std::find(p.choices.begin(), p.choices.end(), v) == p.choices.end()) {
      std::string known;
      for (const auto& c : p.choices) known += (known.empty() ? "" : ", ") + c;
      throw from.error(p.name, "unknown " + (p.called.empty() ? p.name : p.called) + " \"" + v +
                                   "\" (known: " + known + ")");
    }
    return v;
  } else if constexpr (std::is_same_v<T, double>)
    return from.number(p.name, p.min, p.max);
  else if constexpr (std::is_same_v<T, int64_t>)
    return from.integer(p.name, p.min_integer(), p.max_integer());
  else if constexpr (std::is_same_v<T, bool>) {
    from.required(p.name);
    return from.boolean_or(p.name, false);
  } else if constexpr (std::is_same_v<T, Bytes>)
    return from.bytes(p.name, p.bound);
  else if constexpr (std::is_same_v<T, Seconds>)
    return from.seconds(p.name, p.bound);
  else if constexpr (std::is_same_v<T, Flops>)
    return from.flops(p.name, p.bound);
  else if constexpr (std::is_same_v<T, FlopRate>)
    return from.flop_rate(p.name, p.bound);
  else if constexpr (std::is_same_v<T, ByteRate>)
    return from.byte_rate(p.name, p.bound);
  else
    return from.watts(p.name, p.bound);
}

template <class T>
std::optional<T> ParamReader::find(std::string_view name) {
  const Param& p = declared(name);
  if (p.kind != kind_of<T>())
    throw std::logic_error(table_->type() + " reads \"" + p.name + "\" as another kind than it declares");
  if (!json_.has(name)) {
    if (p.need == Need::kOptional) return std::nullopt;
    if (p.need == Need::kRequired)
      throw error("missing required key \"" + p.name + "\": " + p.doc + " (" + p.unit() + ")");
    const nlohmann::json holder = {{p.name, p.fallback}};
    JsonObject fallback(holder, "default of " + table_->type(), "");
    T v = read<T>(p, fallback);
    slot()[p.name] = written(v);
    return v;
  }
  read_.insert(p.name);
  T v = read<T>(p, json_);
  slot()[p.name] = written(v);
  if (p.cited) cited_.push_back(p.name);
  return v;
}

template <class T>
T ParamReader::get(std::string_view name) {
  if (declared(name).need == Need::kOptional)
    throw std::logic_error(table_->type() + " gets optional \"" + std::string(name) + "\" (find it instead)");
  return *find<T>(name);
}

template <class T>
T ParamReader::need(std::string_view name, const std::string& because) {
  std::optional<T> v = find<T>(name);
  if (!v) {
    const Param& p = declared(name);
    throw error("missing key \"" + p.name + "\" " + because + ": " + p.doc + " (" + p.unit() + ")");
  }
  return *v;
}

#define ZS_PARAM_READER_TYPE(T)                                          \
  template T ParamReader::get<T>(std::string_view);                      \
  template T ParamReader::need<T>(std::string_view, const std::string&); \
  template std::optional<T> ParamReader::find<T>(std::string_view);
ZS_PARAM_READER_TYPE(std::string)
ZS_PARAM_READER_TYPE(double)
ZS_PARAM_READER_TYPE(int64_t)
ZS_PARAM_READER_TYPE(bool)
ZS_PARAM_READER_TYPE(Bytes)
ZS_PARAM_READER_TYPE(Seconds)
ZS_PARAM_READER_TYPE(Flops)
ZS_PARAM_READER_TYPE(FlopRate)
ZS_PARAM_READER_TYPE(ByteRate)
ZS_PARAM_READER_TYPE(Watts)
#undef ZS_PARAM_READER_TYPE

int64_t ParamReader::integer_within(std::string_view name, int64_t fallback, int64_t min, int64_t max) {
  const std::optional<int64_t> given = find<int64_t>(name);
  const int64_t v = given.value_or(fallback);
  if (v < min || v > max)
    throw error(name, "expected a whole number in [" + std::to_string(min) + ", " + std::to_string(max) +
                          "], got " + std::to_string(v));
  if (!given) slot()[declared(name).name] = v;
  return v;
}

const nlohmann::json& ParamReader::value(std::string_view name) {
  const Param& p = declared(name);
  read_.insert(p.name);
  if (!json_.has(name))
    throw error("missing required key \"" + p.name + "\": " + p.doc + " (" + p.unit() + ")");
  return json_.required(name);
}

JsonObject ParamReader::object(std::string_view name) {
  const Param& p = declared(name);
  if (p.kind != ParamKind::kObject)
    throw std::logic_error(table_->type() + " reads \"" + p.name + "\" as an object");
  read_.insert(p.name);
  if (!json_.has(name))
    throw error("missing required key \"" + p.name + "\": " + p.doc + " (" + p.unit() + ")");
  return json_.object(name);
}

ParamReader ParamReader::part(std::string_view name) {
  const Param& p = declared(name);
  if (p.part == nullptr)
    throw std::logic_error(table_->type() + " reads \"" + p.name + "\" without its table");
  JsonObject o = object(name);
  return ParamReader(*p.part, std::move(o), root_, json_pointer_append(at_, name));
}

std::vector<ParamReader> ParamReader::parts(std::string_view name) {
  const nlohmann::json& array = list(name);
  const Param& p = declared(name);
  if (p.part == nullptr)
    throw std::logic_error(table_->type() + " reads \"" + p.name + "\" without its table");
  slot()[p.name] = nlohmann::json::array();
  std::vector<ParamReader> out;
  for (size_t i = 0; i < array.size(); ++i) {
    slot()[p.name].push_back(nlohmann::json::object());
    out.push_back(ParamReader(*p.part, json_.element(name, array[i], i), root_,
                              json_pointer_append(json_pointer_append(at_, name), std::to_string(i))));
  }
  return out;
}

const nlohmann::json& ParamReader::list(std::string_view name) {
  const Param& p = declared(name);
  if (p.kind != ParamKind::kList)
    throw std::logic_error(table_->type() + " reads \"" + p.name + "\" as a list");
  read_.insert(p.name);
  if (!json_.has(name))
    throw error("missing required key \"" + p.name + "\": " + p.doc + " (" + p.unit() + ")");
  const nlohmann::json& v = json_.required(name);
  if (!v.is_array())
    throw error(name, "expected an array: " + p.value + ", got " + std::string(v.type_name()));
  if (p.part == nullptr) slot()[p.name] = v;
  return v;
}

std::string ParamReader::element_pointer(std::string_view name, size_t index) const {
  return json_.element_pointer(declared(name).name, index);
}

void ParamReader::record(std::string_view name, nlohmann::json value) {
  slot()[declared(name).name] = std::move(value);
}

void ParamReader::cite(std::string name) {
  cited_.push_back(std::move(name));
}

nlohmann::json& ParamReader::slot() {
  return (*root_)[nlohmann::json::json_pointer(at_)];
}

const nlohmann::json& ParamReader::resolved() const {
  return (*root_)[nlohmann::json::json_pointer(at_)];
}

void ParamReader::read_sources() {
  JsonObject sources = json_.object("sources");
  read_.insert("sources");
  for (const auto& key : sources.keys())
    if (std::find(cited_.begin(), cited_.end(), key) == cited_.end())
      throw sources.error(key, "cites a source for a parameter this model does not set");
  for (const auto& name : cited_) {
    if (!sources.has(name))
      throw sources.error("missing the source of parameter \"" + name + "\" (every value needs one)");
    std::string citation = sources.string(name);
    if (citation.empty()) throw sources.error(name, "empty source citation");
    sources_.emplace(name, std::move(citation));
  }
  slot()["sources"] = sources_;
}

void ParamReader::finish() {
  for (const auto& key : json_.keys()) {
    if (key == "sources" && table_->cites()) continue;
    if (table_->find(key) == nullptr) {
      std::string known;
      for (const auto& p : table_->params()) known += (known.empty() ? "" : ", ") + p.name;
      throw json_.error(key, "unknown key (known keys here: " + known + ")");
    }
    if (!read_.count(key))
      throw json_.error(key, "unknown key here: the other values leave it unused (see `zettasim params " +
                                 table_->type() + "`)");
  }
  if (table_->cites()) read_sources();
}

InputError ParamReader::error(std::string_view name, const std::string& message) const {
  return json_.error(name, message);
}

InputError ParamReader::error(const std::string& message) const {
  return json_.error(message);
}

}  // namespace zs::core
