// Reads one JSON object by its parameter table: types, units, ranges and defaults from the table.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "core/json_object.hpp"
#include "core/param_table.hpp"

namespace zs::core {

/// A reader of one object of a file whose keys `table` declares. Every value read, and every default
/// applied, is recorded in resolved() in the form a file writes it (quantities with their unit), so
/// that the resolved configuration holds exactly the declared names. Reading a name the table does not
/// declare, or as another kind than declared, is a programming error (std::logic_error).
class ParamReader {
 public:
  ParamReader(const ParamTable& table, JsonObject json);

  const ParamTable& table() const { return *table_; }
  const std::string& file() const { return json_.file(); }
  const std::string& pointer() const { return json_.pointer(); }
  /// Whether the file sets `name` (a declared name).
  bool has(std::string_view name) const;

  /// The value of a required or defaulted parameter. T is std::string, double, int64_t, bool or one
  /// of the unit types (Bytes, Seconds, Flops, FlopRate, ByteRate, Watts), as the table declares it.
  template <class T>
  T get(std::string_view name);
  /// The value of any parameter if the file sets it; otherwise its default, or nothing for an
  /// optional one.
  template <class T>
  std::optional<T> find(std::string_view name);

  /// The value of a required or defaulted choice (declared Param::choice with `choices.names()`), as E.
  template <class E>
  E get_choice(std::string_view name, const ChoiceNames<E>& choices) {
    const std::string written = get<std::string>(name);
    if (const auto value = choices.find(written)) return *value;
    throw std::logic_error("\"" + std::string(name) +
                           "\" is declared with other choices than it is read with");
  }

  /// The value of an optional parameter that the other values make necessary (`because`: "for the zipf
  /// distribution"); missing, it is an input error saying so.
  template <class T>
  T need(std::string_view name, const std::string& because);

  /// The value at `name` as written, for a parameter with several forms (a file's path or the object
  /// inline; a name or an object with options), read by the caller, who records what it resolves.
  const nlohmann::json& value(std::string_view name);
  /// A whole number (declared kInteger and optional) whose default and bounds follow from other values:
  /// left out, `fallback` applies and is recorded; either way it must lie in [min, max] too.
  int64_t integer_within(std::string_view name, int64_t fallback, int64_t min, int64_t max);

  /// The object at `name` (declared kObject), for the caller to read; what it reads it records with
  /// record().
  JsonObject object(std::string_view name);
  /// A reader of the object at `name`, declared kObject with a part table; it records into resolved().
  ParamReader part(std::string_view name);
  /// Readers of the objects of the array at `name`, declared kList with a part table.
  std::vector<ParamReader> parts(std::string_view name);
  /// The array at `name` (declared kList without a part), for the caller to read, recorded as written.
  const nlohmann::json& list(std::string_view name);
  /// The JSON path of element `index` of the array at `name`.
  std::string element_pointer(std::string_view name, size_t index) const;
  /// The object itself, for a helper that reads a declared array or object (marked read by list() or
  /// object()) by its own rules.
  JsonObject& json() { return json_; }
  /// Records what the caller read of an object or array parameter, in the form a file writes it.
  void record(std::string_view name, nlohmann::json value);
  /// A cited value inside an object parameter ("matrix_peak.bf16"), which then needs its own source.
  void cite(std::string name);

  /// Refuses keys the table does not declare and declared keys that the values given leave unused,
  /// and, for a model, reads "sources": a citation for every cited value the file sets, and none
  /// for anything else.
  void finish();
  /// What was read and defaulted, with "sources" once finish() has read them.
  const nlohmann::json& resolved() const;
  /// The citations read by finish(), by parameter name.
  const std::map<std::string, std::string>& sources() const { return sources_; }

  InputError error(std::string_view name, const std::string& message) const;
  InputError error(const std::string& message) const;

 private:
  ParamReader(const ParamTable& table, JsonObject json, std::shared_ptr<nlohmann::json> root, std::string at);
  const Param& declared(std::string_view name) const;
  template <class T>
  T read(const Param& p, JsonObject& from);
  nlohmann::json& slot();
  void read_sources();

  const ParamTable* table_;
  JsonObject json_;
  std::shared_ptr<nlohmann::json> root_;  ///< resolved values of the whole file
  std::string at_;                        ///< JSON pointer of this object's values in *root_
  std::set<std::string, std::less<>> read_;
  std::vector<std::string> cited_;
  std::map<std::string, std::string> sources_;
};

}  // namespace zs::core
