// Builds a JSON document from parser events (JSON text or CBOR) while refusing what nlohmann/json would
// let through: duplicate keys, nesting deeper than a bound, numbers out of range; errors name the JSON path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace zs::core {

/// Deepest nesting of arrays and objects accepted in an input document. Our files nest a dozen levels at
/// most; the bound keeps every recursive walk of a document (printing, comparing, freeing) far from the
/// stack's limit.
inline constexpr size_t kMaxJsonDepth = 256;

/// nlohmann/json's SAX interface, forwarded to its DOM builder after the checks. After a parse that
/// returned false, problem() says why and where.
class CheckedDomBuilder {
 public:
  using json = nlohmann::json;
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  /// What stopped the parse: `json_path` where it stopped (a JSON Pointer, "" at the top), `byte` the
  /// offset in the input when the parser gave one, `message` one line.
  struct Problem {
    std::string json_path;
    std::optional<size_t> byte;
    std::string message;
    bool syntax = false;  ///< a syntax or encoding error of the parser, rather than one of our checks
  };

  /// `input_bytes`: the size of the input, when known. A binary format declares the length of an array or
  /// object before its elements; a length the rest of the input cannot hold (each element takes a byte at
  /// least) is refused before anything is built.
  explicit CheckedDomBuilder(json& result, size_t input_bytes = SIZE_MAX)
      : dom_(result, false), input_bytes_(input_bytes) {}

  bool null();
  bool boolean(bool value);
  bool number_integer(number_integer_t value);
  bool number_unsigned(number_unsigned_t value);
  bool number_float(number_float_t value, const string_t& text);
  bool string(string_t& value);
  bool binary(binary_t& value);
  bool start_object(std::size_t elements);
  bool key(string_t& value);
  bool end_object();
  bool start_array(std::size_t elements);
  bool end_array();
  bool parse_error(std::size_t position, const std::string& last_token,
                   const nlohmann::detail::exception& ex);

  const std::optional<Problem>& problem() const { return problem_; }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string, std::less<>> keys;  ///< an object's keys so far
    std::string key;                          ///< an object's current key
    size_t index = 0;                         ///< an array's current element
  };

  bool enter(bool object);
  bool leave();
  /// A value ended: an array's next one has the next index.
  void value_done();
  /// The JSON Pointer of the value being read.
  std::string path() const;
  bool fail(std::string message);

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Frame> frames_;
  size_t input_bytes_;
  std::optional<Problem> problem_;
};

}  // namespace zs::core
