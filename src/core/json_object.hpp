// A strict reader of one JSON object in a file: typed getters with units and ranges, unknown keys rejected.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/input_error.hpp"
#include "core/units.hpp"

namespace zs::core {

/// Parses JSON text; a syntax error becomes an InputError naming the file, line and column. Refused too,
/// naming the JSON path: a duplicate key, nesting deeper than kMaxJsonDepth, a number out of double's
/// range, a NUL byte (which would otherwise end the text early).
nlohmann::json parse_json(const std::string& text, const std::string& file);
/// Parses a CBOR document with the same checks (malformed input: "malformed CBOR trace: ...").
nlohmann::json parse_cbor(std::string_view bytes, const std::string& file);

/// Appends a key to a JSON Pointer, escaping '~' and '/'.
std::string json_pointer_append(const std::string& pointer, std::string_view key);

/// Whether a quantity may be zero. Sizes, rates and counts are positive; times may be zero.
enum class Bound { kPositive, kNonNegative };

/// A view of one JSON object that remembers which keys were read, so that finish() can reject the
/// rest. Every error it raises names the file and the JSON path of the offending value.
class JsonObject {
 public:
  JsonObject(const nlohmann::json& value, std::string file, std::string pointer);

  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  bool has(std::string_view key) const;

  /// The raw value of a required key.
  const nlohmann::json& required(std::string_view key);
  /// The raw value of an optional key, or nullptr.
  const nlohmann::json* optional(std::string_view key);

  std::string string(std::string_view key);
  std::optional<std::string> optional_string(std::string_view key);
  /// A string that becomes a file or folder name: one safe path component (core/file_name.hpp).
  std::string file_name(std::string_view key);
  /// A plain number in [min, max].
  double number(std::string_view key, double min, double max);
  double number_or(std::string_view key, double fallback, double min, double max);
  /// A whole number in [min, max].
  int64_t integer(std::string_view key, int64_t min, int64_t max);
  int64_t integer_or(std::string_view key, int64_t fallback, int64_t min, int64_t max);
  bool boolean_or(std::string_view key, bool fallback);
  /// An array of strings: `array` says what the array should be ("an array of stream names"),
  /// `element` what each entry should be ("a stream name"); a wrong entry is named by its path.
  std::vector<std::string> strings(std::string_view key, const std::string& array,
                                   const std::string& element);

  Bytes bytes(std::string_view key, Bound bound = Bound::kPositive);
  Seconds seconds(std::string_view key, Bound bound = Bound::kNonNegative);
  Flops flops(std::string_view key, Bound bound = Bound::kPositive);
  FlopRate flop_rate(std::string_view key, Bound bound = Bound::kPositive);
  ByteRate byte_rate(std::string_view key, Bound bound = Bound::kPositive);
  Watts watts(std::string_view key, Bound bound = Bound::kPositive);

  JsonObject object(std::string_view key);
  /// A view of `value`, element `index` of the array at `key` (its path is key/index).
  JsonObject element(std::string_view key, const nlohmann::json& value, size_t index) const;
  /// The JSON path of element `index` of the array at `key`.
  std::string element_pointer(std::string_view key, size_t index) const;
  /// The keys of this object, in sorted order.
  std::vector<std::string> keys() const;

  /// Rejects every key that no getter asked for, listing the known ones.
  void finish() const;

  InputError error(std::string_view key, const std::string& message) const;
  InputError error(const std::string& message) const;

 private:
  template <class Q, class Parse>
  Q quantity(std::string_view key, Bound bound, Parse parse);
  void mark(std::string_view key);

  const nlohmann::json* value_;
  std::string file_;
  std::string pointer_;
  std::set<std::string, std::less<>> asked_;
};

}  // namespace zs::core
