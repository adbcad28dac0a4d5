// A closed set of choices declared once: an enum's values with the names files write for them.
#pragma once

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zs::core {

/// The names of enum E's values, in the order tables and messages list them. A parameter table declares
/// the choice with names() (Param::choice), a reader reads it into E once (ParamReader::get_choice), and
/// output writes name(): no other code compares a string with one of the names.
template <class E>
class ChoiceNames {
 public:
  ChoiceNames(std::initializer_list<std::pair<E, const char*>> entries) : entries_(entries) {}

  /// The names, in order.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [value, name] : entries_) out.emplace_back(name);
    return out;
  }
  /// The name of `value`; throws std::logic_error for a value the set does not name.
  std::string_view name(E value) const {
    for (const auto& [v, name] : entries_)
      if (v == value) return name;
    throw std::logic_error("a choice without a name");
  }
  /// The value named `name`, or none.
  std::optional<E> find(std::string_view name) const {
    for (const auto& [value, n] : entries_)
      if (name == n) return value;
    return std::nullopt;
  }

 private:
  std::vector<std::pair<E, const char*>> entries_;
};

}  // namespace zs::core
