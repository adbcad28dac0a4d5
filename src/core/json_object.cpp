// Strict JSON object reading with file and JSON-path error messages.
#include "core/json_object.hpp"

#include <cmath>

#include "core/checked_dom_builder.hpp"
#include "core/file_name.hpp"

namespace zs::core {
namespace {

std::string type_name(const nlohmann::json& j) {
  return j.type_name();
}

/// A value as an error message shows it: one line, at most about 60 characters. Strings are quoted and
/// escaped (never raw: a newline in a value must not start a second message line).
std::string shown(const nlohmann::json& j) {
  if (j.is_string()) return quoted_for_message(j.get_ref<const std::string&>(), 57);
  if (j.is_array()) return j.empty() ? "[]" : "[...] (" + std::to_string(j.size()) + " elements)";
  if (j.is_object()) return j.empty() ? "{}" : "{...} (" + std::to_string(j.size()) + " keys)";
  std::string s = j.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

/// "line L, column C" of byte offset `byte` (1-based, as the parser counts) in `text`.
std::string line_and_column(const std::string& text, size_t byte) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& file) {
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    throw InputError(
        file, "",
        "malformed JSON at " + line_and_column(text, nul + 1) + ": a NUL byte (JSON text holds none)");
  nlohmann::json doc;
  CheckedDomBuilder builder(doc);
  if (nlohmann::json::sax_parse(text, &builder)) return doc;
  const auto& problem = *builder.problem();
  if (!problem.syntax) throw InputError(file, problem.json_path, problem.message);
  const auto pos = problem.message.find("syntax error");
  const std::string reason = pos == std::string::npos ? problem.message : problem.message.substr(pos);
  throw InputError(file, "",
                   "malformed JSON at " + line_and_column(text, problem.byte.value_or(0)) + ": " + reason);
}

nlohmann::json parse_cbor(std::string_view bytes, const std::string& file) {
  nlohmann::json doc;
  CheckedDomBuilder builder(doc, bytes.size());
  if (nlohmann::json::sax_parse(bytes.begin(), bytes.end(), &builder, nlohmann::json::input_format_t::cbor))
    return doc;
  const auto& problem = *builder.problem();
  if (problem.syntax) throw InputError(file, "", "malformed CBOR trace: " + problem.message);
  throw InputError(file, problem.json_path, problem.message);
}

std::string json_pointer_append(const std::string& pointer, std::string_view key) {
  std::string out = pointer + "/";
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

JsonObject::JsonObject(const nlohmann::json& value, std::string file, std::string pointer)
    : value_(&value), file_(std::move(file)), pointer_(std::move(pointer)) {
  if (!value.is_object())
    throw InputError(file_, pointer_.empty() ? "/" : pointer_,
                     "expected a JSON object, got " + type_name(value) + " " + shown(value));
}

bool JsonObject::has(std::string_view key) const {
  return value_->contains(key);
}

void JsonObject::mark(std::string_view key) {
  asked_.emplace(key);
}

const nlohmann::json& JsonObject::required(std::string_view key) {
  mark(key);
  auto it = value_->find(key);
  if (it == value_->end()) throw error("missing required key \"" + std::string(key) + "\"");
  return *it;
}

const nlohmann::json* JsonObject::optional(std::string_view key) {
  mark(key);
  auto it = value_->find(key);
  return it == value_->end() ? nullptr : &*it;
}

std::string JsonObject::string(std::string_view key) {
  const auto& v = required(key);
  if (!v.is_string()) throw error(key, "expected a string, got " + type_name(v) + " " + shown(v));
  return v.get<std::string>();
}

std::string JsonObject::file_name(std::string_view key) {
  std::string name = string(key);
  if (auto problem = file_name_problem(name))
    throw error(key, "expected " + std::string(kFileNameRule) + ", got " + *problem);
  return name;
}

std::optional<std::string> JsonObject::optional_string(std::string_view key) {
  if (!has(key)) {
    mark(key);
    return std::nullopt;
  }
  return string(key);
}

std::vector<std::string> JsonObject::strings(std::string_view key, const std::string& array,
                                             const std::string& element) {
  const auto& v = required(key);
  if (!v.is_array()) throw error(key, "expected " + array);
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) throw InputError(file_, element_pointer(key, i), "expected " + element);
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

double JsonObject::number(std::string_view key, double min, double max) {
  const auto& v = required(key);
  if (!v.is_number()) throw error(key, "expected a number, got " + type_name(v) + " " + shown(v));
  double x = v.get<double>();
  if (!(x >= min && x <= max))
    throw error(key, "expected a number in [" + nlohmann::json(min).dump() + ", " +
                         nlohmann::json(max).dump() + "], got " + shown(v));
  return x;
}

double JsonObject::number_or(std::string_view key, double fallback, double min, double max) {
  if (!has(key)) {
    mark(key);
    return fallback;
  }
  return number(key, min, max);
}

int64_t JsonObject::integer(std::string_view key, int64_t min, int64_t max) {
  const auto& v = required(key);
  if (!v.is_number_integer())
    throw error(key, "expected a whole number, got " + type_name(v) + " " + shown(v));
  int64_t x =
      v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX) ? INT64_MAX : v.get<int64_t>();
  if (x < min || x > max)
    throw error(key, "expected a whole number in [" + std::to_string(min) + ", " + std::to_string(max) +
                         "], got " + shown(v));
  return x;
}

int64_t JsonObject::integer_or(std::string_view key, int64_t fallback, int64_t min, int64_t max) {
  if (!has(key)) {
    mark(key);
    return fallback;
  }
  return integer(key, min, max);
}

bool JsonObject::boolean_or(std::string_view key, bool fallback) {
  const auto* v = optional(key);
  if (!v) return fallback;
  if (!v->is_boolean()) throw error(key, "expected true or false, got " + type_name(*v) + " " + shown(*v));
  return v->get<bool>();
}

template <class Q, class Parse>
Q JsonObject::quantity(std::string_view key, Bound bound, Parse parse) {
  const auto& v = required(key);
  if (!v.is_string())
    throw error(key, "expected a string with a unit, got " + type_name(v) + " " + shown(v) +
                         " (a bare number is ambiguous)");
  Q q;
  try {
    q = parse(v.get<std::string>());
  } catch (const UnitError& e) {
    throw error(key, e.what());
  }
  if (bound == Bound::kPositive && !(q.value() > 0.0))
    throw error(key, "expected a value > 0, got " + shown(v));
  if (bound == Bound::kNonNegative && !(q.value() >= 0.0))
    throw error(key, "expected a value >= 0, got " + shown(v));
  constexpr PhysicalRange range = physical_range<Q>();
  if (q.value() > range.max || (q.value() > 0.0 && q.value() < range.min))
    throw error(key, "expected " + std::string(bound == Bound::kNonNegative ? "0 or " : "") +
                         "a value from " + to_string(Q(range.min)) + " to " + to_string(Q(range.max)) +
                         " (a physical one), got " + shown(v));
  return q;
}

Bytes JsonObject::bytes(std::string_view key, Bound b) {
  return quantity<Bytes>(key, b, parse_bytes);
}
Seconds JsonObject::seconds(std::string_view key, Bound b) {
  return quantity<Seconds>(key, b, parse_seconds);
}
Flops JsonObject::flops(std::string_view key, Bound b) {
  return quantity<Flops>(key, b, parse_flops);
}
FlopRate JsonObject::flop_rate(std::string_view key, Bound b) {
  return quantity<FlopRate>(key, b, parse_flop_rate);
}
ByteRate JsonObject::byte_rate(std::string_view key, Bound b) {
  return quantity<ByteRate>(key, b, parse_byte_rate);
}

Watts JsonObject::watts(std::string_view key, Bound b) {
  return quantity<Watts>(key, b, parse_watts);
}

JsonObject JsonObject::object(std::string_view key) {
  return JsonObject(required(key), file_, json_pointer_append(pointer_, key));
}

JsonObject JsonObject::element(std::string_view key, const nlohmann::json& value, size_t index) const {
  return JsonObject(value, file_, element_pointer(key, index));
}

std::string JsonObject::element_pointer(std::string_view key, size_t index) const {
  return json_pointer_append(json_pointer_append(pointer_, key), std::to_string(index));
}

std::vector<std::string> JsonObject::keys() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : value_->items()) out.push_back(k);
  return out;
}

void JsonObject::finish() const {
  for (const auto& [k, v] : value_->items()) {
    if (asked_.count(k)) continue;
    std::string known;
    for (const auto& a : asked_) known += (known.empty() ? "" : ", ") + a;
    throw error(k, "unknown key (known keys here: " + (known.empty() ? std::string("none") : known) + ")");
  }
}

InputError JsonObject::error(std::string_view key, const std::string& message) const {
  return InputError(file_, json_pointer_append(pointer_, key), message);
}

InputError JsonObject::error(const std::string& message) const {
  return InputError(file_, pointer_.empty() ? "/" : pointer_, message);
}

}  // namespace zs::core
