// One family of named, pluggable things (policies, generators): an explicit list, open to additions.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zs::core {

class ParamTable;

/// Whether `name` is kebab-case: lowercase letters and digits in words joined by single '-'.
inline bool is_kebab_case(std::string_view name) {
  if (name.empty() || name.front() == '-' || name.back() == '-') return false;
  char previous = 0;
  for (char c : name) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!word && (c != '-' || previous == '-')) return false;
    previous = c;
  }
  return true;
}

/// The entries of one family, in the order they were added. The built-ins are added by one function per
/// family, one line each (as LLVM's .def lists are); a plugin adds to the same object at run time. There
/// is no global instance: whoever needs a family is handed the registry.
template <class Factory>
class Registry {
 public:
  struct Entry {
    std::string name;         ///< kebab-case, as scenario files write it
    std::string description;  ///< one line, shown by `zettasim list`
    Factory make;
    /// The parameters the entry reads, declared once (`zettasim params` prints the table); nullptr when
    /// it takes none.
    const ParamTable* params = nullptr;
  };

  /// `family` names the family in messages ("collective policy", "topology generator").
  explicit Registry(std::string family) : family_(std::move(family)) {}

  /// Adds an entry; throws std::invalid_argument for a name that is not kebab-case or already taken.
  /// `params`, which must outlive the registry: the entry's parameter table, if it reads any.
  Registry& add(std::string name, std::string description, Factory make, const ParamTable* params = nullptr) {
    if (!is_kebab_case(name))
      throw std::invalid_argument(family_ + " name \"" + name + "\" is not kebab-case");
    if (find(name) != nullptr)
      throw std::invalid_argument(family_ + " \"" + name + "\" is already registered");
    entries_.push_back({std::move(name), std::move(description), std::move(make), params});
    return *this;
  }

  /// The entry named `name`, or nullptr.
  const Entry* find(std::string_view name) const {
    for (const auto& e : entries_)
      if (e.name == name) return &e;
    return nullptr;
  }

  /// The entry named `name`; throws std::out_of_range naming the family and listing the known names.
  const Entry& at(std::string_view name) const {
    if (const Entry* e = find(name)) return *e;
    throw std::out_of_range("unknown " + family_ + " \"" + std::string(name) + "\" (known: " + names() + ")");
  }

  /// The known names, comma-separated, in order.
  std::string names() const {
    std::string out;
    for (const auto& e : entries_) out += (out.empty() ? "" : ", ") + e.name;
    return out;
  }

  const std::vector<Entry>& entries() const { return entries_; }
  const std::string& family() const { return family_; }

 private:
  std::string family_;
  std::vector<Entry> entries_;
};

}  // namespace zs::core
