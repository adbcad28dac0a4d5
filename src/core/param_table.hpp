// The parameters of one type of input (a model kind, a generator, a workload file), declared once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_kind.hpp"

#include "core/json_object.hpp"

namespace zs::core {

/// What a parameter's value is, and so how it is written in a file.
enum class ParamKind {
  kText,      ///< a string
  kNumber,    ///< a plain number (a fraction, a ratio)
  kInteger,   ///< a whole number (a count)
  kBoolean,   ///< true or false
  kBytes,     ///< a size with its unit: "80GiB"
  kSeconds,   ///< a time with its unit: "5us"
  kFlops,     ///< a FLOP count with its unit: "1e9FLOP"
  kFlopRate,  ///< a FLOP rate with its unit: "989TFLOP/s"
  kByteRate,  ///< a bandwidth with its unit: "400Gb/s"
  kWatts,     ///< a power with its unit: "700W"
  kObject,    ///< a JSON object; `value` says what it holds, `part` declares it when it has a table
  kList,      ///< a JSON array; `value` says of what, `part` declares its objects when it has a table
};

/// How a file may leave a parameter out.
enum class Need {
  kRequired,  ///< the file must set it
  kOptional,  ///< left out, the feature it describes is off (the doc says what that means)
  kDefault,   ///< left out, `fallback` applies
};

class ParamTable;

/// One parameter: its name as files write it, its unit, whether it may be left out, its range, a
/// one-line doc and whether a model file must cite a source for the value it sets.
struct Param {
  std::string name;
  ParamKind kind = ParamKind::kText;
  std::string doc;
  Need need = Need::kRequired;
  nlohmann::json fallback;           ///< the default as a file writes it (need == kDefault)
  double min = 0;                    ///< kNumber, kInteger: smallest accepted value
  double max = 0;                    ///< kNumber, kInteger: largest accepted value
  Bound bound = Bound::kPositive;    ///< quantities: > 0 or >= 0
  bool cited = false;                ///< a value set in a model file needs its source under "sources"
  std::string value;                 ///< kObject, kList: what it holds, in words
  const ParamTable* part = nullptr;  ///< kObject, kList: the table of the object(s), if declared
  std::vector<std::string> choices;  ///< kText: the accepted values, when the set is closed
  std::string called;                ///< kText with choices: the noun errors use ("unknown NOUN")
  std::string kind_of;               ///< a file's "kind" (Param::file_kind): what a file of that kind is

  static Param text(std::string name, std::string doc);
  static Param number(std::string name, double min, double max, std::string doc);
  static Param integer(std::string name, int64_t min, int64_t max, std::string doc);
  static Param boolean(std::string name, std::string doc);
  /// A text that is one of `choices`; another is refused with "unknown NAME \"x\" (known: ...)".
  static Param choice(std::string name, std::vector<std::string> choices, std::string doc);
  /// A file's "kind": the one value `value`, declared once; another is refused with "expected \"VALUE\"
  /// for WHAT" (`what`: "a link model").
  static Param file_kind(FileKind kind, std::string what);
  static Param bytes(std::string name, std::string doc);
  static Param seconds(std::string name, std::string doc);
  static Param flops(std::string name, std::string doc);
  static Param flop_rate(std::string name, std::string doc);
  static Param byte_rate(std::string name, std::string doc);
  static Param watts(std::string name, std::string doc);
  /// An object holding `value` (e.g. "dtype name → FLOP/s"); read by the caller.
  static Param object(std::string name, std::string value, std::string doc);
  /// An object read by `part`'s table.
  static Param object(std::string name, const ParamTable& part, std::string doc);
  /// An array of `value` (e.g. "unit names"); read by the caller.
  static Param list(std::string name, std::string value, std::string doc);
  /// An array of objects, each read by `part`'s table.
  static Param list(std::string name, const ParamTable& part, std::string doc);

  Param& optional();                          ///< may be left out (the feature is off)
  Param& or_default(nlohmann::json written);  ///< may be left out; then `written` applies
  Param& cite();                              ///< a value set needs a source citation
  Param& non_negative();                      ///< a quantity that may be 0
  Param& positive();                          ///< a quantity that must be > 0
  Param& noun(std::string what);              ///< a choice's name in errors ("overflow policy")

  /// kInteger: the accepted range as whole numbers (a bound of 2^63 or more is INT64_MAX).
  int64_t min_integer() const;
  int64_t max_integer() const;
  /// The unit as a reader of the docs needs it: "B/s (e.g. \"400Gb/s\")".
  std::string unit() const;
  /// The accepted range in words: "[0.01, 1]", "> 0", "" when any value of the kind is accepted.
  std::string range() const;
  /// "required", "off when left out", or the default as written.
  std::string default_text() const;
};

/// The parameters of one type, in the order the docs list them.
class ParamTable {
 public:
  /// `type` names the type as `zettasim params TYPE` does ("link", "topology fat-tree", "fat-tree
  /// level"); `doc` is one line.
  ParamTable(std::string type, std::string doc, std::vector<Param> params);

  const std::string& type() const { return type_; }
  const std::string& doc() const { return doc_; }
  const std::vector<Param>& params() const { return params_; }
  /// The parameter named `name`, or nullptr.
  const Param* find(std::string_view name) const;
  /// Whether any parameter needs a cited source (a model file: it then holds "sources").
  bool cites() const;
  /// This table followed by `more`'s parameters, under `more`'s type and doc (a topology file's
  /// common keys and its generator's).
  ParamTable with(const ParamTable& more) const;

 private:
  std::string type_;
  std::string doc_;
  std::vector<Param> params_;
};

/// The table of a model file of `kind`: "kind", "name" and "description" first, then `params`; when any
/// of them is cited, "sources" last.
ParamTable model_table(FileKind kind, std::string doc, std::vector<Param> params);

}  // namespace zs::core
